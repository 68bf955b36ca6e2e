// Wavefront OBJ reader: the geometry statements `v` and `f`, every other statement skipped.
#include "moreau/collision/mesh_obj.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

namespace moreau {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// The next blank-separated token of `line` from `pos` (empty at the end).
std::string_view next_token(std::string_view line, size_t& pos) {
  while (pos < line.size() && is_blank(line[pos])) ++pos;
  const size_t start = pos;
  while (pos < line.size() && !is_blank(line[pos])) ++pos;
  return line.substr(start, pos - start);
}

// A leading '+' dropped (std::from_chars takes none), but not before another sign.
std::string_view unsigned_plus(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '+' && s[1] != '-') s.remove_prefix(1);
  return s;
}

bool parse_double(std::string_view s, double* x) {
  s = unsigned_plus(s);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *x);
  return ec == std::errc() && end == s.data() + s.size();
}

enum class Corner { Ok, Malformed, OutOfRange };

// A face corner "i", "i/t", "i//n" or "i/t/n": the vertex index i.
Corner parse_corner(std::string_view s, long long* i) {
  s = unsigned_plus(s.substr(0, s.find('/')));
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *i);
  if (s.empty() || end != s.data() + s.size()) return Corner::Malformed;
  if (ec == std::errc::result_out_of_range) return Corner::OutOfRange;
  return ec == std::errc() ? Corner::Ok : Corner::Malformed;
}

struct Face {
  int line;
  size_t first, count;  // into the corners
};

Error bad_index(const std::string& source, int line, size_t face, size_t vertices,
                const std::string& got) {
  return Error{source, line, "OBJ face " + std::to_string(face),
               "vertex indices within the " + std::to_string(vertices) + " vertices", got};
}

}  // namespace

Result<std::shared_ptr<MeshData>> parse_obj(std::string_view text, const std::string& source) {
  std::vector<Vec3> positions;
  // 0-based indices into positions, as written (1-based, or negative: relative); a positive index
  // may name a vertex defined further down, so they are checked after the last line.
  std::vector<long long> corners, written;
  std::vector<Face> faces;
  int line_no = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte-order mark
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    line = line.substr(0, line.find('#'));  // a comment, whole-line or after the data
    at = end + 1;
    ++line_no;
    size_t pos = 0;
    const std::string_view key = next_token(line, pos);
    if (key == "v") {
      Vec3 p;
      for (int k = 0; k < 3; ++k) {
        const std::string_view tok = next_token(line, pos);
        if (!parse_double(tok, &p[k]) || !std::isfinite(p[k]))
          return Error{source, line_no, "OBJ vertex " + std::to_string(positions.size() + 1),
                       "three finite numbers x y z",
                       tok.empty() ? "fewer" : "'" + std::string(tok) + "'"};
      }
      positions.push_back(p);  // an optional w or colour after x y z is not geometry
    } else if (key == "f") {
      Face face{line_no, corners.size(), 0};
      for (std::string_view tok = next_token(line, pos); !tok.empty();
           tok = next_token(line, pos)) {
        long long i = 0;
        const Corner parsed = parse_corner(tok, &i);
        if (parsed == Corner::OutOfRange)
          return bad_index(source, line_no, faces.size() + 1, positions.size(),
                           "'" + std::string(tok) + "'");
        if (parsed != Corner::Ok || i == 0)
          return Error{source, line_no, "OBJ face " + std::to_string(faces.size() + 1),
                       "vertex indices v, v/vt, v//vn or v/vt/vn with v a nonzero integer",
                       "'" + std::string(tok) + "'"};
        // Negative indices count back from the last vertex defined so far (OBJ's relative form).
        const long long at_index = i > 0 ? i - 1 : static_cast<long long>(positions.size()) + i;
        if (at_index < 0)
          return bad_index(source, line_no, faces.size() + 1, positions.size(), std::to_string(i));
        corners.push_back(at_index);
        written.push_back(i);
        ++face.count;
      }
      if (face.count < 3)
        return Error{source, line_no, "OBJ face " + std::to_string(faces.size() + 1),
                     "3 or more vertices", std::to_string(face.count)};
      faces.push_back(face);
    }
    // vn, vt, vp, g, o, s, l, p, mtllib, usemtl: no geometry of a solid.
  }
  if (faces.empty())
    return Error{source, 0, "OBJ", "at least one face (an 'f' line)",
                 std::to_string(positions.size()) + " vertices, no face"};
  auto mesh = std::make_shared<MeshData>();
  mesh->source = source;
  std::vector<int> joined(positions.size(), -1);
  std::map<std::array<double, 3>, int> by_position;  // identical vertices joined
  for (size_t f = 0; f < faces.size(); ++f) {
    std::array<int, 3> fan{};
    for (size_t k = 0; k < faces[f].count; ++k) {
      const long long i = corners[faces[f].first + k];
      if (i >= static_cast<long long>(positions.size()))
        return bad_index(source, faces[f].line, f + 1, positions.size(),
                         std::to_string(written[faces[f].first + k]));
      if (joined[i] < 0) {
        const Vec3& p = positions[i];
        const auto [it, added] =
            by_position.try_emplace({p.x(), p.y(), p.z()}, static_cast<int>(mesh->vertices.size()));
        if (added) mesh->vertices.push_back(p);
        joined[i] = it->second;
      }
      // Fan triangulation (0, k - 1, k) of the polygon.
      if (k == 0) fan[0] = joined[i];
      if (k >= 2) {
        fan[1] = joined[corners[faces[f].first + k - 1]];
        fan[2] = joined[i];
        mesh->triangles.push_back(fan);
      }
    }
  }
  return mesh;
}

}  // namespace moreau
