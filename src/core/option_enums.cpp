// The options' choices by name (option_enums.hpp).
#include "mpiwrite/core/option_enums.hpp"

namespace mpiwrite {

std::string_view to_string(Partition value) {
  switch (value) {
    case Partition::Block:
      return "block";
    case Partition::Cyclic:
      return "cyclic";
    case Partition::Dynamic:
      return "dynamic";
  }
  return "?";
}

std::string_view to_string(WriteMode value) { return value == WriteMode::Line ? "line" : "whole"; }

std::string_view to_string(Format value) {
  switch (value) {
    case Format::Table:
      return "table";
    case Format::Markdown:
      return "markdown";
    case Format::Csv:
      return "csv";
    case Format::Json:
      return "json";
  }
  return "?";
}

std::string_view to_string(Engine value) {
  switch (value) {
    case Engine::Posix:
      return "posix";
    case Engine::Uring:
      return "uring";
    case Engine::Null:
      return "null";
  }
  return "?";
}

std::string_view to_string(ProgressStyle value) {
  switch (value) {
    case ProgressStyle::Auto:
      return "auto";
    case ProgressStyle::Tty:
      return "tty";
    case ProgressStyle::Lines:
      return "lines";
  }
  return "?";
}

std::string_view to_string(Layout value) {
  switch (value) {
    case Layout::Shared:
      return "shared";
    case Layout::Rank:
      return "rank";
    case Layout::Thread:
      return "thread";
  }
  return "?";
}

}  // namespace mpiwrite
