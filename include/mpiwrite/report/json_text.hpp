#pragma once
// The JSON report's text: nlohmann-json's dump(2) layout, with every string (keys included)
// written by json_string (text_escape.hpp), so bytes that are not UTF-8 are kept as \udcXX
// escapes instead of making dump() throw after the whole run (docs/metrics.md, JSON).

#include <nlohmann/json.hpp>
#include <string>

namespace mpiwrite {

// The same text as value.dump(indent) wherever that does not throw.
std::string dump_lossless(const nlohmann::ordered_json& value, int indent);

}  // namespace mpiwrite
