// A program's man page from its CLI11 definition (man_page.hpp).
#include "mpiwrite/manual/man_page.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace mpiwrite {

namespace {

// Runs of white space as one space: compare's descriptions come wrapped for --help.
std::string one_line(const std::string& text) {
  std::istringstream words{text};
  std::string line, word;
  while (words >> word) line += (line.empty() ? "" : " ") + word;
  return line;
}

// Plain text in paragraphs (blank lines between them); a line that starts with a space is
// kept as it is (no fill), as the verdict table in mpiwrite-compare's footer.
std::string paragraphs(const std::string& text) {
  std::string out, running;
  bool verbatim = false;
  const auto flush = [&] {
    if (!running.empty()) out += troff_escape(one_line(running)) + "\n";
    running.clear();
  };
  std::istringstream lines{text};
  std::string line;
  while (std::getline(lines, line)) {
    const bool kept = !line.empty() && std::isspace(static_cast<unsigned char>(line[0]));
    if (kept != verbatim) {
      flush();
      out += kept ? ".nf\n" : ".fi\n";
      verbatim = kept;
    }
    if (kept) {
      out += troff_escape(line) + "\n";
    } else if (one_line(line).empty()) {
      flush();
      if (!out.empty() && !out.ends_with(".PP\n")) out += ".PP\n";
    } else {
      running += " " + line;
    }
  }
  flush();
  if (verbatim) out += ".fi\n";
  while (out.ends_with(".PP\n")) out.resize(out.size() - 4);
  return out;
}

std::string bold(const std::string& text) { return "\\fB" + troff_escape(text) + "\\fR"; }
std::string italic(const std::string& text) { return "\\fI" + troff_escape(text) + "\\fR"; }

// The option's names and value as --help shows them (CLI11's Formatter::make_option_opts):
// "-n, --files N", "--partition TEXT:{block,cyclic,dynamic}=block".
std::string option_tag(const CLI::Option& opt) {
  std::string tag;
  if (!opt.nonpositional()) {
    tag = italic(opt.get_name());
  } else {
    for (const std::string& s : opt.get_snames()) tag += (tag.empty() ? "" : ", ") + bold("-" + s);
    for (const std::string& l : opt.get_lnames()) tag += (tag.empty() ? "" : ", ") + bold("--" + l);
  }
  if (opt.nonpositional() && opt.get_type_size() != 0 && !opt.get_type_name().empty()) {
    std::string value = opt.get_type_name();
    if (!opt.get_default_str().empty()) value += "=" + opt.get_default_str();
    if (opt.get_expected_max() == CLI::detail::expected_max_vector_size) value += " ...";
    tag += " " + italic(value);
  }
  return tag;
}

std::string options_section(const CLI::App& app, const std::string& group) {
  std::string out;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group() != group || !opt->nonpositional()) continue;
    out += ".TP\n" + option_tag(*opt) + "\n";
    out += opt->get_description().empty() ? "\n"
                                          : troff_escape(one_line(opt->get_description())) + "\n";
  }
  return out;
}

}  // namespace

std::string troff_escape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0xC0) {
      // UTF-8 (the "µs" of --slow-delay-us) as groff's \[uXXXX]: troff reads bytes, and only
      // man-db's preconv would have turned it into a character.
      const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2;
      char32_t code = byte & (0x3Fu >> (length - 1));
      for (std::size_t k = 1; k < length && i + 1 < text.size(); ++k) {
        code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3Fu);
      }
      out += fmt::format("\\[u{:04X}]", static_cast<std::uint32_t>(code));
    } else if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  // A line starting with '.' or '\'' would be read as a request.
  std::string safe;
  std::istringstream lines{out};
  std::string line;
  while (std::getline(lines, line)) {
    if (!safe.empty()) safe += "\n";
    if (line.starts_with(".") || line.starts_with("'")) safe += "\\&";
    safe += line;
  }
  return safe;
}

std::string man_page(const CLI::App& app, const ManPage& page) {
  std::string upper = page.program;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string out = ".\\\" Generated from " + page.program +
                    "'s command-line definition by mpiwrite_manual; do not edit.\n";
  out += ".TH " + upper + " 1 \"\" \"" + page.version + "\" \"User Commands\"\n";
  out += ".SH NAME\n" + troff_escape(page.program) + " \\- " + troff_escape(page.summary) + "\n";
  out += ".SH SYNOPSIS\n.nf\n" + troff_escape(page.synopsis) + "\n.fi\n";
  out += ".SH DESCRIPTION\n" + paragraphs(app.get_description());
  // Positional arguments first, as --help lists them; then each group in --help's order.
  std::string positionals;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->nonpositional()) continue;
    positionals +=
        ".TP\n" + option_tag(*opt) + "\n" + troff_escape(one_line(opt->get_description())) + "\n";
  }
  if (!positionals.empty()) out += ".SH ARGUMENTS\n" + positionals;
  out += ".SH OPTIONS\n";
  for (const std::string& group : app.get_groups()) {
    const std::string options = options_section(app, group);
    if (group.empty() || options.empty()) continue;
    out += ".SS " + troff_escape(group) + "\n" + options;
  }
  if (const std::string footer = app.get_footer(); !one_line(footer).empty()) {
    out += ".SH " + page.footer_section + "\n" + paragraphs(footer);
  }
  for (const auto& [title, text] : page.sections) out += ".SH " + title + "\n" + paragraphs(text);
  return out;
}

}  // namespace mpiwrite
