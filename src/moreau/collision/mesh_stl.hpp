#pragma once
// STL geometry, read by moreau itself (docs/model-import.md, "Meshes"): binary and ASCII, the
// triangles' corners only (facet normals and the binary attribute word are not geometry: a
// solid's triangles carry their orientation in the corner order).
#include <memory>
#include <string>
#include <string_view>

#include "moreau/model/error.hpp"
#include "moreau/model/geometry.hpp"

namespace moreau {

// Reads STL bytes as one triangle soup: binary when the size is 84 + 50 n bytes for the count n
// of its header (also when the 80-byte header starts with "solid", as many exporters write it),
// else ASCII (`solid`, then `facet ... outer loop, vertex x y z` three times, `endloop endfacet`,
// `endsolid`). Vertices at identical positions joined, in the order triangles first use them;
// triangles whose joined corners coincide (no area) dropped. `source` names the bytes in errors:
// a size that fits no binary count and no ASCII solid, a malformed or non-finite number (with its
// line, ASCII) or triangle (binary), a facet of other than 3 vertices, no triangle at all.
Result<std::shared_ptr<MeshData>> parse_stl(std::string_view bytes, const std::string& source);

}  // namespace moreau
