#pragma once
// mpiwrite-compare's three outputs of one ReportComparison, shaped like mpiwrite's own: an
// aligned table for a terminal, GitHub Markdown, and JSON ("schema": "mpiwrite-compare/1")
// with every figure, null where there is none. Strings from the reports go through
// text_escape.hpp: the human formats never print a control character from a report.

#include <iosfwd>
#include <string_view>

#include "mpiwrite/compare/report_comparison.hpp"

namespace mpiwrite {

inline constexpr const char* kCompareJsonSchema = "mpiwrite-compare/1";

enum class CompareFormat { Table, Markdown, Json };

// "table", "markdown", "json"
const char* to_string(CompareFormat format);

void write_comparison(const ReportComparison& comparison, CompareFormat format, std::ostream& out);

}  // namespace mpiwrite
