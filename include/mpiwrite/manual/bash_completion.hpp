#pragma once
// A bash completion script for a program, made from its CLI11 definition: the option names
// are every name of every option the app defines; an option whose value is one of a list
// (CLI11's IsMember, shown in --help as {a,b,c}) completes those words, one that takes a file
// or directory completes paths, a positional argument completes paths. Pure: only text.

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace mpiwrite {

std::string bash_completion(const CLI::App& app, const std::string& program);

}  // namespace mpiwrite
