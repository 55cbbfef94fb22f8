#pragma once
// RunConfig for Boost.Serialization (rank 0 broadcasts it), non-intrusive and kept out of the
// core, which needs no Boost. Every field of visit_config_fields is sent, in its order. No MPI
// here: tests/unit/config_fields_test.cpp round-trips it through a text archive.

#include <boost/serialization/split_free.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <optional>

#include "mpiwrite/core/config_fields.hpp"

// std::optional, which Boost 1.74's serialization does not know: a flag, then the value.
namespace boost::serialization {

template <class Archive, class T>
void save(Archive& ar, const std::optional<T>& value, unsigned /*version*/) {
  const bool has = value.has_value();
  ar << has;
  if (has) ar << *value;
}

template <class Archive, class T>
void load(Archive& ar, std::optional<T>& value, unsigned /*version*/) {
  bool has = false;
  ar >> has;
  value.reset();
  if (has) {
    T received{};
    ar >> received;
    value = received;
  }
}

template <class Archive, class T>
void serialize(Archive& ar, std::optional<T>& value, unsigned version) {
  split_free(ar, value, version);
}

}  // namespace boost::serialization

namespace mpiwrite {

template <class Archive>
void serialize(Archive& ar, RunConfig& c, unsigned /*version*/) {
  visit_config_fields(c, [&ar](const ConfigField&, auto& field) { ar& field; });
}

}  // namespace mpiwrite
