#pragma once
// A program's man page (troff, man(7) macros) made from its CLI11 definition: every option
// the app defines, by the groups --help shows, with --help's type names and descriptions. The
// text around the options (name line, synopsis, exit status, see also) is the page's own.
// Pure: it only formats text.

#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace mpiwrite {

struct ManPage {
  std::string program;   // mpiwrite
  std::string version;   // shown in the page's footer: "mpiwrite 0.4.0"
  std::string summary;   // the NAME line after "program \-"
  std::string synopsis;  // plain text, one usage per line
  // Sections after DESCRIPTION and OPTIONS, e.g. {"EXIT STATUS", "0 ..."}: plain text, blank
  // lines between paragraphs, lines that start with a space kept as they are.
  std::vector<std::pair<std::string, std::string>> sections;
  std::string footer_section;  // the title the app's --help footer gets, when it has one
};

std::string man_page(const CLI::App& app, const ManPage& page);

// Plain text as troff: a line starting with '.' or '\'' is not a request, '\' and '-' are
// themselves. Exposed for the completion's and the page's tests.
std::string troff_escape(const std::string& text);

}  // namespace mpiwrite
