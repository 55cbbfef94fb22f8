#include "mpiwrite/compare/compare_gate.hpp"

#include <fmt/format.h>

#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

namespace {

bool fails(CompareVerdict verdict, FailOn fail_on) {
  if (verdict == CompareVerdict::Slower) return fail_on.slower || fail_on.different;
  if (verdict == CompareVerdict::Faster) return fail_on.different;
  return false;
}

// "--fail-on slower", "--fail-on different", "--fail-on slower,different".
std::string option_text(FailOn fail_on) {
  std::string names;
  if (fail_on.slower) names += "slower";
  if (fail_on.different) names += std::string(names.empty() ? "" : ",") + "different";
  return "--fail-on " + names;
}

}  // namespace

GateOutcome apply_gate(const ReportComparison& comparison, FailOn fail_on) {
  GateOutcome gate;
  std::size_t slower = 0, faster = 0;
  std::string names;
  for (std::size_t i = 0; i < comparison.points.size(); ++i) {
    const PointComparison& p = comparison.points[i];
    if (!fails(p.verdict, fail_on)) continue;
    gate.points.push_back(i);
    (p.verdict == CompareVerdict::Slower ? slower : faster) += 1;
    names += fmt::format("{}{} {} ({})", names.empty() ? "" : ", ", verdict_name(p.verdict),
                         printable(p.new_side.label), printable(p.new_side.mode));
  }
  gate.failed = !gate.points.empty();
  if (!gate.failed) return gate;
  std::string what;
  if (slower > 0) what += "slower";
  if (faster > 0) what += std::string(what.empty() ? "" : " or ") + "faster";
  gate.message =
      fmt::format("mpiwrite-compare: {}: new is {} at {} of {} points: {}", option_text(fail_on),
                  what, gate.points.size(), comparison.points.size(), names);
  return gate;
}

}  // namespace mpiwrite
