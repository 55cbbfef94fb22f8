#pragma once
// The one list of RunConfig's fields, with the name each has in the JSON report. The MPI
// serialization (mpi/config_serialization.hpp) and the report's config echo (report/json.cpp)
// walk it instead of naming the fields again, so a field listed here reaches both. The
// command line (core/cli.cpp) binds its options by hand (each has its own flag, help and
// check); tests/unit/config_fields_test.cpp fails for a listed field that no option sets, and
// the static_assert below fails to compile when RunConfig gains a field this list lacks.

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite {

struct ConfigField {
  std::string_view name;
  // False for the fields the report leaves out: `dry_run` (a dry run prints its plan, never a
  // report), `seed` (the report's top-level seed is the one used, also when none was given and
  // the clock chose), `progress_s` and `progress_style` (live progress measures nothing), the
  // extra outputs (`json_output` ...: where copies went, not what was run; `output` stays for
  // the readers of schema 4 that have it), and `wide` (how the table is laid out, not what was
  // measured).
  bool in_report = true;
};

// Calls visit(ConfigField, member) for every field of `config`, const or not, in the order the
// serialization sends them and the JSON echoes them.
template <typename Config, typename Visitor>
requires std::same_as<std::remove_const_t<Config>, RunConfig>
void visit_config_fields(Config& c, Visitor&& visit) {
  visit(ConfigField{"files"}, c.files);
  visit(ConfigField{"lines"}, c.lines);
  visit(ConfigField{"files_per_rank"}, c.files_per_rank);
  visit(ConfigField{"file_size"}, c.file_size);
  visit(ConfigField{"write_size"}, c.write_size);
  visit(ConfigField{"text"}, c.text);
  visit(ConfigField{"dir"}, c.dir);
  visit(ConfigField{"pattern"}, c.pattern);
  visit(ConfigField{"threads"}, c.threads);
  visit(ConfigField{"partition"}, c.partition);
  visit(ConfigField{"write_mode"}, c.write_mode);
  visit(ConfigField{"engine"}, c.engine);
  visit(ConfigField{"queue_depth"}, c.queue_depth);
  visit(ConfigField{"fsync"}, c.fsync);
  visit(ConfigField{"repetitions"}, c.repetitions);
  visit(ConfigField{"warmup"}, c.warmup);
  visit(ConfigField{"auto_repetitions"}, c.auto_repetitions);
  visit(ConfigField{"precision"}, c.precision);
  visit(ConfigField{"min_repetitions"}, c.min_repetitions);
  visit(ConfigField{"max_repetitions"}, c.max_repetitions);
  visit(ConfigField{"max_time_s"}, c.max_time_s);
  visit(ConfigField{"equivalence"}, c.equivalence);
  visit(ConfigField{"overwrite"}, c.overwrite);
  visit(ConfigField{"cleanup"}, c.cleanup);
  visit(ConfigField{"format"}, c.format);
  visit(ConfigField{"output"}, c.output);
  visit(ConfigField{"json_output", false}, c.json_output);
  visit(ConfigField{"csv_output", false}, c.csv_output);
  visit(ConfigField{"markdown_output", false}, c.markdown_output);
  visit(ConfigField{"per_rank"}, c.per_rank);
  visit(ConfigField{"wide", false}, c.wide);
  visit(ConfigField{"dry_run", false}, c.dry_run);
  visit(ConfigField{"sweep_threads"}, c.sweep_threads);
  visit(ConfigField{"compare"}, c.compare);
  visit(ConfigField{"max_concurrency"}, c.max_concurrency);
  visit(ConfigField{"seed", false}, c.seed);
  visit(ConfigField{"chunk"}, c.chunk);
  visit(ConfigField{"slow_ranks"}, c.slow_ranks);
  visit(ConfigField{"slow_delay_us"}, c.slow_delay_us);
  visit(ConfigField{"verify"}, c.verify);
  visit(ConfigField{"timeout_s"}, c.timeout_s);
  visit(ConfigField{"time_limit_s"}, c.time_limit_s);
  visit(ConfigField{"wear_out"}, c.wear_out);
  visit(ConfigField{"layouts"}, c.layouts);
  visit(ConfigField{"files_per_dir"}, c.files_per_dir);
  visit(ConfigField{"tree_depth"}, c.tree_depth);
  visit(ConfigField{"branch"}, c.branch);
  visit(ConfigField{"phases"}, c.phases);
  visit(ConfigField{"shift"}, c.shift);
  visit(ConfigField{"random_order"}, c.random_order);
  visit(ConfigField{"progress_s", false}, c.progress_s);
  visit(ConfigField{"progress_style", false}, c.progress_style);
}
inline constexpr std::size_t kConfigFieldCount = 52;  // the calls above (a test counts them)

namespace detail {

// Converts to a reference of any type, so T{AnyField{}, ...} compiles exactly when T is an
// aggregate with at least that many fields (how Boost.PFR counts fields; Boost 1.74 has no
// PFR). Only ever used unevaluated.
struct AnyField {
  template <typename T>
  operator T&() const noexcept;
};
template <std::size_t>
using Any = AnyField;

template <typename T, typename... Args>
concept BraceInitializable = requires {
  T{std::declval<Args>()...};
};

template <typename T, std::size_t... I>
constexpr bool takes(std::index_sequence<I...>) {
  return BraceInitializable<T, Any<I>...>;
}

template <typename T, std::size_t N = 0>
constexpr std::size_t aggregate_field_count() {
  if constexpr (takes<T>(std::make_index_sequence<N + 1>{})) {
    return aggregate_field_count<T, N + 1>();
  } else {
    return N;
  }
}

}  // namespace detail

static_assert(std::is_aggregate_v<RunConfig>);
static_assert(
    detail::aggregate_field_count<RunConfig>() == kConfigFieldCount,
    "RunConfig gained or lost a field: list it in visit_config_fields, give it a "
    "command-line option (core/cli.cpp) and an entry in tests/unit/config_fields_test.cpp, "
    "then update kConfigFieldCount");

}  // namespace mpiwrite
