#include "mpiwrite/report/json_text.hpp"

#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

namespace {

void dump_into(const nlohmann::ordered_json& value, std::size_t indent, std::size_t depth,
               std::string& out) {
  const std::string inner((depth + 1) * indent, ' '), outer(depth * indent, ' ');
  if (value.is_object() && !value.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
      out += (first ? "" : ",\n") + inner + json_string(key) + ": ";
      dump_into(item, indent, depth + 1, out);
      first = false;
    }
    out += "\n" + outer + "}";
  } else if (value.is_array() && !value.empty()) {
    out += "[\n";
    bool first = true;
    for (const auto& item : value) {
      out += (first ? "" : ",\n") + inner;
      dump_into(item, indent, depth + 1, out);
      first = false;
    }
    out += "\n" + outer + "]";
  } else if (value.is_string()) {
    out += json_string(value.get_ref<const std::string&>());
  } else {
    out += value.dump();  // numbers, booleans, null, {} and []: no string inside
  }
}

}  // namespace

std::string dump_lossless(const nlohmann::ordered_json& value, int indent) {
  std::string out;
  dump_into(value, static_cast<std::size_t>(indent), 0, out);
  return out;
}

}  // namespace mpiwrite
