#include "moreau/model/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace moreau {

const char* shape_name(ShapeType t) {
  switch (t) {
    case ShapeType::Plane:
      return "plane";
    case ShapeType::Sphere:
      return "sphere";
    case ShapeType::Capsule:
      return "capsule";
    case ShapeType::Cylinder:
      return "cylinder";
    case ShapeType::Box:
      return "box";
    case ShapeType::Ellipsoid:
      return "ellipsoid";
    case ShapeType::ConvexMesh:
      return "convex_mesh";
    case ShapeType::TriangleMesh:
      return "mesh";
    case ShapeType::HeightField:
      return "height_field";
  }
  return "?";
}

Result<std::shared_ptr<const HeightFieldData>> make_height_field(int nrow, int ncol,
                                                                 const std::array<double, 4>& size,
                                                                 std::vector<double> elevation,
                                                                 const std::string& element) {
  if (nrow < 2 || ncol < 2)
    return Error{"", 0, element + " nrow, ncol", "at least 2 rows and 2 columns",
                 std::to_string(nrow) + " x " + std::to_string(ncol)};
  static const char* kSize[4] = {"radius_x", "radius_y", "elevation", "base"};
  for (int k = 0; k < 4; ++k)
    if (!std::isfinite(size[k]) || size[k] <= 0.0)
      return Error{"", 0, element + " size[" + std::to_string(k) + "] (" + kSize[k] + ")",
                   "a finite number > 0", error_number(size[k])};
  const size_t n = static_cast<size_t>(nrow) * static_cast<size_t>(ncol);
  if (elevation.empty()) elevation.assign(n, 0.0);
  if (elevation.size() != n)
    return Error{"", 0, element + " elevation", "nrow * ncol = " + std::to_string(n) + " values",
                 std::to_string(elevation.size()) + " values"};
  double lo = elevation[0], hi = elevation[0];
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(elevation[i]))
      return Error{"", 0, element + " elevation[" + std::to_string(i) + "]", "a finite number",
                   error_number(elevation[i])};
    lo = std::min(lo, elevation[i]);
    hi = std::max(hi, elevation[i]);
  }
  // MuJoCo's normalization: subtract the minimum, divide by the range when it is not ~0.
  for (double& e : elevation) {
    e -= lo;
    if (hi - lo > 1e-15) e /= hi - lo;
  }
  auto h = std::make_shared<HeightFieldData>();
  h->source = element;
  h->nrow = nrow;
  h->ncol = ncol;
  h->rx = size[0];
  h->ry = size[1];
  h->elevation_scale = size[2];
  h->base = size[3];
  h->elevation = std::move(elevation);
  return std::shared_ptr<const HeightFieldData>(std::move(h));
}

}  // namespace moreau
