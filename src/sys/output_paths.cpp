// The report's files checked together (output_path.hpp, check_output_paths): each as -o's, and
// no file named twice under two spellings, which core/report_outputs.cpp cannot see.
#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <system_error>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/output_path.hpp"

namespace mpiwrite {

namespace {

// What an output's bytes end up in, as far as the file system tells before the run: an
// existing regular file by device and inode, a new name by its directory's path with every
// link resolved (the directory may be a --dir still to be made). Nothing for a device, FIFO
// or /proc link: written in place, which may be done twice.
std::optional<std::string> destination(const ReportOutput& output) {
  const OutputTarget t =
      follow_output_named(output.path, output.option + " " + output.path);
  struct stat info {};
  if (t.kind == OutputTarget::Kind::Regular && ::stat(t.file.c_str(), &info) == 0) {
    return fmt::format("inode {}:{}", info.st_dev, info.st_ino);
  }
  if (t.kind != OutputTarget::Kind::Absent) return std::nullopt;
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(t.file, error);
  if (error) return std::nullopt;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, error);
  if (error) return std::nullopt;
  return "path " + canonical.string();
}

}  // namespace

std::vector<HeldOutputDirectory> check_output_paths(const RunConfig& config,
                                                    const std::vector<ReportOutput>& outputs) {
  std::vector<HeldOutputDirectory> held;
  std::vector<std::optional<std::string>> ends;
  for (const ReportOutput& output : outputs) {
    held.push_back(check_output_path(config, output));
    ends.push_back(destination(output));
    for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
      if (ends[i] && ends[i] == ends.back()) {
        throw UsageError(fmt::format("{} {} and {} {} name the same file; give each output a "
                                     "file of its own",
                                     outputs[i].option, outputs[i].path, output.option,
                                     output.path));
      }
    }
  }
  return held;
}

}  // namespace mpiwrite
