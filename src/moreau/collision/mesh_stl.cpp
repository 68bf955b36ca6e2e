// STL reader: binary and ASCII triangle soups, identical corners joined.
#include "moreau/collision/mesh_stl.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace moreau {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

uint32_t read_u32(const char* p) {
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(p[k]);
  return v;
}

// Joins identical corners (3 per triangle) into vertices in the order the triangles first use
// them, and drops the triangles two of whose corners coincide. Sorting the corners by position
// (ties by corner) keeps it O(n log n) on the million corners of a robot's meshes.
std::shared_ptr<MeshData> join_corners(const std::vector<Vec3>& corners,
                                       const std::string& source) {
  const size_t n = corners.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) {
    const Vec3 &p = corners[a], &q = corners[b];
    if (p.x() != q.x()) return p.x() < q.x();
    if (p.y() != q.y()) return p.y() < q.y();
    if (p.z() != q.z()) return p.z() < q.z();
    return a < b;
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<uint32_t> group(n);
  uint32_t groups = 0;
  for (size_t k = 0; k < n; ++k) {
    if (k > 0 && corners[order[k]] != corners[order[k - 1]]) ++groups;
    group[order[k]] = groups;
  }
  std::vector<int> vertex(n > 0 ? groups + 1 : 0, -1);
  auto mesh = std::make_shared<MeshData>();
  mesh->source = source;
  for (size_t t = 0; t + 2 < n; t += 3) {
    const uint32_t g0 = group[t], g1 = group[t + 1], g2 = group[t + 2];
    if (g0 == g1 || g1 == g2 || g0 == g2) continue;  // a sliver: its corners stay unused
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      int& v = vertex[group[t + k]];
      if (v < 0) {
        v = static_cast<int>(mesh->vertices.size());
        mesh->vertices.push_back(corners[t + k]);
      }
      tri[k] = v;
    }
    mesh->triangles.push_back(tri);
  }
  return mesh;
}

Result<std::shared_ptr<MeshData>> parse_binary(std::string_view bytes, size_t count,
                                               const std::string& source) {
  std::vector<Vec3> corners(3 * count);
  for (size_t t = 0; t < count; ++t) {
    const char* rec = bytes.data() + 84 + 50 * t + 12;  // past the facet normal
    for (int k = 0; k < 3; ++k) {
      Vec3& p = corners[3 * t + k];
      for (int c = 0; c < 3; ++c) p[c] = std::bit_cast<float>(read_u32(rec + 12 * k + 4 * c));
      if (!p.allFinite())
        return Error{source, 0, "STL triangle " + std::to_string(t + 1),
                     "finite vertex coordinates", "a non-finite coordinate"};
    }
  }
  return join_corners(corners, source);
}

// The corners of an ASCII solid, 3 per facet (none: no facet).
Result<std::vector<Vec3>> parse_ascii(std::string_view text, const std::string& source) {
  std::vector<Vec3> corners;
  int line = 1, in_facet = -1;  // in_facet: the facet's vertices so far, -1 outside a facet
  size_t pos = 0;
  auto next = [&]() {
    while (pos < text.size() && is_blank(text[pos])) line += text[pos++] == '\n';
    const size_t start = pos;
    while (pos < text.size() && !is_blank(text[pos])) ++pos;
    return text.substr(start, pos - start);
  };
  const std::string facet = "STL facet ";
  for (std::string_view tok = next(); !tok.empty(); tok = next()) {
    if (tok == "facet") {
      if (in_facet >= 0)
        return Error{source, line, facet + std::to_string(corners.size() / 3 + 1),
                     "'endfacet' before the next 'facet'", "another 'facet'"};
      in_facet = 0;
    } else if (tok == "vertex") {
      if (in_facet < 0 || in_facet >= 3)
        return Error{source, line, facet + std::to_string(corners.size() / 3 + 1),
                     "3 vertices inside 'facet' ... 'endfacet'",
                     in_facet < 0 ? "a vertex outside a facet" : "a fourth vertex"};
      Vec3 p;
      for (int c = 0; c < 3; ++c) {
        const std::string_view num = next();
        const char* end = num.data() + num.size();
        const auto [stop, ec] = std::from_chars(num.data(), end, p[c]);
        if (num.empty() || ec != std::errc() || stop != end || !std::isfinite(p[c]))
          return Error{source, line, facet + std::to_string(corners.size() / 3 + 1),
                       "three finite numbers after 'vertex'",
                       num.empty() ? "fewer" : "'" + std::string(num) + "'"};
      }
      corners.push_back(p);
      ++in_facet;
    } else if (tok == "endfacet") {
      if (in_facet != 3)
        return Error{source, line, facet + std::to_string(corners.size() / 3 + 1),
                     "3 vertices per facet", std::to_string(std::max(in_facet, 0))};
      in_facet = -1;
    }
    // normal nx ny nz, outer loop, endloop: no geometry. `solid` and `endsolid` name the solid
    // on the rest of their line (a name may be any word, "vertex" included).
    if (tok == "solid" || tok == "endsolid")
      while (pos < text.size() && text[pos] != '\n') ++pos;
  }
  if (in_facet >= 0)
    return Error{source, line, facet + std::to_string(corners.size() / 3 + 1),
                 "'endfacet' before the end of the file", "the end"};
  return corners;
}

// Bytes that are neither a binary STL of the size its header counts nor an ASCII solid.
Error neither_binary_nor_ascii(std::string_view bytes, size_t count, const std::string& source,
                               const char* ascii, const std::string& got) {
  return Error{source, 0, "STL file",
               std::string("binary (84 + 50 n bytes for the n triangles its header counts) or "
                           "ASCII (") +
                   ascii + ")",
               std::to_string(bytes.size()) + " bytes" +
                   (bytes.size() >= 84 ? ", header counting " + std::to_string(count) : "") + got};
}

}  // namespace

Result<std::shared_ptr<MeshData>> parse_stl(std::string_view bytes, const std::string& source) {
  const size_t count = bytes.size() >= 84 ? read_u32(bytes.data() + 80) : 0;
  Result<std::shared_ptr<MeshData>> mesh = std::shared_ptr<MeshData>();
  if (bytes.size() >= 84 && (bytes.size() - 84) % 50 == 0 && (bytes.size() - 84) / 50 == count) {
    mesh = parse_binary(bytes, count, source);
  } else {
    size_t at = 0;
    while (at < bytes.size() && is_blank(bytes[at])) ++at;
    if (bytes.substr(at, 5) != "solid")
      return neither_binary_nor_ascii(bytes, count, source, "starting 'solid'", "");
    Result<std::vector<Vec3>> corners = parse_ascii(bytes, source);
    if (!corners) return corners.error();
    // "solid" but no facet: often a binary file of the wrong size whose header says "solid".
    if (corners->empty())
      return neither_binary_nor_ascii(bytes, count, source, "facets", ", no 'facet'");
    mesh = join_corners(*corners, source);
  }
  if (!mesh) return mesh.error();
  if ((*mesh)->triangles.empty())
    return Error{source, 0, "STL file", "at least one triangle with three distinct corners",
                 "none"};
  return mesh;
}

}  // namespace moreau
