#pragma once
// Mesh files (OBJ by moreau's reader, STL through assimp) and convex hulls (qhull). Errors name the
// file and element.
#include <memory>
#include <string>
#include <vector>

#include "moreau/model/error.hpp"
#include "moreau/model/geometry.hpp"

namespace moreau {

// Loads every mesh of an OBJ (mesh_obj.hpp; by its extension, any case) or STL file as one
// triangle soup (triangulated, identical vertices joined, node transforms ignored: vertices as
// written in the file). Errors: missing or unreadable file, no triangles, non-finite vertices.
Result<std::shared_ptr<const MeshData>> load_mesh(const std::string& path);

// Convex hull of points (outward CCW triangles, hull vertices only). `source` names the points in
// messages (a file, or "geometry 'x'"). Error: fewer than 4 non-coplanar points, non-finite input.
Result<std::shared_ptr<const MeshData>> convex_hull(const std::vector<Vec3>& points,
                                                    const std::string& source);

// Fills mesh.neighbor_start / neighbors from its triangles (each vertex's neighbours sorted).
void build_vertex_neighbors(MeshData& mesh);

// Hull of a loaded mesh's vertices, keeping its source.
Result<std::shared_ptr<const MeshData>> convex_hull(const MeshData& mesh);

}  // namespace moreau
