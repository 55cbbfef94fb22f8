// A bash completion script from a program's CLI11 definition (bash_completion.hpp).
#include "mpiwrite/manual/bash_completion.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace mpiwrite {

namespace {

// The paths that start with the word at the cursor, quoted as file names. compopt fails,
// harmlessly, when the function runs outside a completion (tests/install/manual_options.sh).
constexpr const char* kPaths =
    "      compopt -o filenames 2>/dev/null || :\n"
    "      mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n";

// Every name an option answers to, as typed: "-n", "--files".
std::vector<std::string> names_of(const CLI::Option& opt) {
  std::vector<std::string> names;
  for (const std::string& s : opt.get_snames()) names.push_back("-" + s);
  for (const std::string& l : opt.get_lnames()) names.push_back("--" + l);
  return names;
}

std::string joined(const std::vector<std::string>& words, const std::string& between) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : between) + w;
  return out;
}

// The words of a value checked against a list: CLI11 shows IsMember as "TEXT:{a,b,c}".
std::vector<std::string> choices_of(const CLI::Option& opt) {
  const std::string type = opt.get_type_name();
  const std::size_t open = type.find('{');
  const std::size_t close = type.find('}', open);
  std::vector<std::string> words;
  if (open == std::string::npos || close == std::string::npos) return words;
  std::string word;
  for (const char c : type.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  words.push_back(word);
  return words;
}

// A value that names a path: an output FILE (the validator's name) or --dir.
bool takes_path(const CLI::Option& opt) {
  return opt.get_type_name().find("FILE") != std::string::npos || opt.check_lname("dir");
}

// "-d|--dir) ...;;": what to complete after each option that must have a value. An option
// whose value may be left out (--progress) completes as if it had none.
std::string value_cases(const CLI::App& app) {
  std::vector<std::string> paths, free;
  std::string out;
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional() || opt->get_type_size() == 0 || opt->get_expected_min() == 0) {
      continue;
    }
    const std::string pattern = joined(names_of(*opt), "|");
    if (const std::vector<std::string> words = choices_of(*opt); !words.empty()) {
      out += "    " + pattern + ")\n      mapfile -t COMPREPLY < <(compgen -W '" +
             joined(words, " ") + "' -- \"$cur\")\n      return ;;\n";
    } else if (takes_path(*opt)) {
      paths.push_back(pattern);
    } else {
      free.push_back(pattern);
    }
  }
  if (!paths.empty()) out += "    " + joined(paths, "|") + ")\n" + kPaths + "      return ;;\n";
  // A number or a name to type: nothing to offer, and not the options either.
  if (!free.empty()) out += "    " + joined(free, "|") + ")\n      COMPREPLY=()\n      return ;;\n";
  return out;
}

}  // namespace

std::string bash_completion(const CLI::App& app, const std::string& program) {
  std::string function = "_";
  for (const char c : program) function += (c == '-' ? '_' : c);
  std::vector<std::string> options;
  bool positionals = false;
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) positionals = true;
    for (const std::string& name : names_of(*opt)) options.push_back(name);
  }
  std::string out = "# bash completion for " + program + ". Generated from " + program +
                    "'s command-line definition\n# by mpiwrite_manual; do not edit.\n";
  out += function + "() {\n";
  out += "  local cur=${COMP_WORDS[COMP_CWORD]} prev=\n";
  out += "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n";
  out += "  case $prev in\n" + value_cases(app) + "  esac\n";
  out += "  if [[ $cur == -* ]]; then\n";
  out += "    mapfile -t COMPREPLY < <(compgen -W '" + joined(options, " ") + "' -- \"$cur\")\n";
  if (positionals) {
    // The arguments are files (mpiwrite-compare's two reports).
    out += std::string("  else\n") + kPaths;
  } else {
    out += "  else\n    COMPREPLY=()\n";
  }
  out += "  fi\n}\n";
  out += "complete -F " + function + " " + program + "\n";
  return out;
}

}  // namespace mpiwrite
