#pragma once
// Wavefront OBJ geometry, read by moreau itself (docs/model-import.md, "Meshes"): `v` and `f`
// only, the rest of the format (normals, texture coordinates, groups, materials) skipped.
#include <memory>
#include <string>
#include <string_view>

#include "moreau/model/error.hpp"
#include "moreau/model/geometry.hpp"

namespace moreau {

// Reads OBJ text as one triangle soup: faces fan-triangulated, 1-based and negative (relative)
// vertex indices (a positive one may name a vertex defined further down), vertices at identical
// positions joined, vertices in the order faces first use them (unused vertices dropped); `#`
// comments anywhere on a line, a UTF-8 byte-order mark skipped. `source` names the text in
// errors, which carry its line: a malformed number, a face of fewer than 3 vertices, an index 0 or
// out of range (as written), no face at all.
Result<std::shared_ptr<MeshData>> parse_obj(std::string_view text, const std::string& source);

}  // namespace moreau
