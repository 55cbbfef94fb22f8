#pragma once
// RunConfig for Boost.Serialization (rank 0 broadcasts it), non-intrusive and kept out of the
// core, which needs no Boost. Every field of visit_config_fields is sent, in its order. No MPI
// here: tests/unit/config_fields_test.cpp round-trips it through a text archive.

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "mpiwrite/core/config_fields.hpp"

namespace mpiwrite {

template <class Archive>
void serialize(Archive& ar, RunConfig& c, unsigned /*version*/) {
  visit_config_fields(c, [&ar](const ConfigField&, auto& field) { ar & field; });
}

}  // namespace mpiwrite
