#include "moreau/io/problem_io.hpp"

#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace moreau {

namespace {

constexpr const char* kMagic = "MOREAU-PROBLEM 1";

using Arrays = std::vector<std::pair<std::string, std::vector<double>>>;

void append(std::vector<double>& out, const double* x, size_t n) {
  out.insert(out.end(), x, x + n);
}
std::vector<double> of(const VecX& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

// Every double of the Problem, by name, in file order.
Arrays collect(const Problem& p) {
  Arrays a;
  a.push_back({"dt", {p.dt}});
  std::vector<double> mu, rest, J, stiffness, tau_d, bound;
  for (const ConstraintBlock& b : p.blocks) {
    mu.push_back(b.mu);
    bound.push_back(b.bound);
    rest.push_back(b.restitution);
    stiffness.push_back(b.stiffness);
    tau_d.push_back(b.tau_d);
    append(J, b.J[0].data(), 36);
    append(J, b.J[1].data(), 36);
  }
  a.push_back({"block_mu", mu});
  a.push_back({"block_restitution", rest});
  a.push_back({"block_J", J});
  // SAP's per-contact compliance (Castro et al. 2023, Sec. V); optional on reading (older dumps).
  a.push_back({"block_stiffness", stiffness});
  a.push_back({"block_tau_d", tau_d});
  // Joint dry friction's interval bounds (ConeKind::Box); optional on reading (older dumps).
  a.push_back({"block_bound", bound});
  std::vector<double> M, Minv;
  for (const Mat6& m : p.M) append(M, m.data(), 36);
  for (const Mat6& m : p.Minv) append(Minv, m.data(), 36);
  a.push_back({"M", M});
  a.push_back({"Minv", Minv});
  a.push_back({"u_minus", of(p.u_minus)});
  a.push_back({"h", of(p.generalized_force)});
  a.push_back({"u_free", of(p.u_free)});
  std::vector<double> Dv;
  for (int e = 0; e < p.D.nnz_blocks(); ++e) {
    const auto B = p.D.entry(e);
    append(Dv, B.data(), static_cast<size_t>(B.size()));
  }
  a.push_back({"D_values", Dv});
  a.push_back({"D_dense", p.has_dense ? std::vector<double>(p.D_dense.data(),
                                                            p.D_dense.data() + p.D_dense.size())
                                      : std::vector<double>()});
  a.push_back({"v_f", of(p.v_f)});
  a.push_back({"v_minus", of(p.v_minus)});
  a.push_back({"f", of(p.f)});
  a.push_back({"R", of(p.R)});
  a.push_back({"v_r", of(p.v_r)});
  return a;
}

uint64_t to_little(uint64_t x) {
  if constexpr (std::endian::native == std::endian::big) {
    uint64_t y = 0;
    for (int k = 0; k < 8; ++k) y |= ((x >> (8 * k)) & 0xff) << (8 * (7 - k));
    return y;
  }
  return x;
}

// A header value that is not what the layout says (found by fuzzing: a float where an integer
// belongs made the conversion undefined behaviour); load_problem reports it as a bad header.
struct HeaderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The header integer j, which must lie in [lo, hi]: floats, strings and out-of-range values throw.
long long integer(const nlohmann::json& j, long long lo, long long hi, const char* what) {
  if (j.is_number_unsigned() && j.get<uint64_t>() <= static_cast<uint64_t>(hi))
    if (const auto x = static_cast<long long>(j.get<uint64_t>()); x >= lo) return x;
  if (j.is_number_integer() && !j.is_number_unsigned())
    if (const long long x = j.get<long long>(); x >= lo && x <= hi) return x;
  throw HeaderError(std::string(what) + ": expected an integer in [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "], got " + j.dump());
}
int int_field(const nlohmann::json& j, const char* what) {
  return static_cast<int>(
      integer(j, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), what));
}

Error bad(const std::string& path, const std::string& what, const std::string& got = {}) {
  return Error{path, 0, "problem dump", what, got};
}

VecX vec(const std::vector<double>& v) {
  return Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Blocks from the header's integer metadata and the per-block arrays.
std::optional<Error> read_blocks(const nlohmann::json& blocks,
                                 std::map<std::string, std::vector<double>>& a,
                                 const std::string& path, Problem& p, std::vector<int>& sizes) {
  const size_t nbk = blocks.size();
  if (a["block_mu"].size() != nbk || a["block_restitution"].size() != nbk ||
      a["block_J"].size() != 72 * nbk)
    return bad(path, "per-block arrays of " + std::to_string(nbk) + " blocks", "other sizes");
  for (size_t i = 0; i < nbk; ++i) {
    const auto& b = blocks[i];
    ConstraintBlock c;
    c.kind = static_cast<RowKind>(integer(b.at(0), 0, 2, "block kind"));
    c.cone = static_cast<ConeKind>(integer(b.at(1), 0, 3, "block cone"));
    c.offset = int_field(b.at(2), "block offset");
    c.size = static_cast<int>(integer(b.at(3), 1, 6, "block size"));
    c.body[0] = int_field(b.at(4), "block body0");
    c.body[1] = int_field(b.at(5), "block body1");
    c.source = int_field(b.at(6), "block source");
    c.dof = int_field(b.at(7), "block dof");
    if (!b.at(8).is_number_unsigned()) throw HeaderError("block id: expected an unsigned integer");
    c.id = b.at(8).get<uint64_t>();  // a hash: the whole 64-bit range
    // Armature rows (absent from dumps written before them: none).
    if (b.size() > 9) c.rotor_rows = static_cast<int>(integer(b.at(9), 0, 6, "block rotor_rows"));
    if (c.size < 1 || c.size > 6)
      return bad(path, "block " + std::to_string(i) + " with 1..6 rows and known kinds");
    if (c.rotor_rows > c.size || (c.rotor_rows > 0 && c.kind != RowKind::Joint))
      return bad(path, "block " + std::to_string(i) + " with armature rows only on a joint block",
                 std::to_string(c.rotor_rows) + " of " + std::to_string(c.size) + " rows");
    c.mu = a["block_mu"][i];
    c.restitution = a["block_restitution"][i];
    if (a.count("block_stiffness") && a["block_stiffness"].size() == nbk)
      c.stiffness = a["block_stiffness"][i];
    if (a.count("block_tau_d") && a["block_tau_d"].size() == nbk) c.tau_d = a["block_tau_d"][i];
    if (a.count("block_bound") && a["block_bound"].size() == nbk) c.bound = a["block_bound"][i];
    std::memcpy(c.J[0].data(), a["block_J"].data() + 72 * i, 36 * sizeof(double));
    std::memcpy(c.J[1].data(), a["block_J"].data() + 72 * i + 36, 36 * sizeof(double));
    sizes.push_back(c.size);
    p.blocks.push_back(c);
  }
  return std::nullopt;
}

// Rebuilds the Problem from the header and the arrays (sizes already checked against header).
Result<Problem> build(const nlohmann::json& h, std::map<std::string, std::vector<double>>& a,
                      const std::string& path) {
  Problem p;
  p.nl = static_cast<int>(integer(h.at("nl"), 0, std::numeric_limits<int>::max(), "nl"));
  p.num_bodies = static_cast<int>(
      integer(h.at("num_bodies"), 0, std::numeric_limits<int>::max(), "num_bodies"));
  p.dt = a["dt"].at(0);
  std::vector<int> sizes;
  if (auto e = read_blocks(h.at("blocks"), a, path, p, sizes)) return *e;
  const size_t nbk = p.blocks.size();
  const auto& rows = h.at("D_rows");
  if (rows.size() != nbk) return bad(path, "D_rows for every block", std::to_string(rows.size()));
  p.D.begin(sizes.data(), static_cast<int>(nbk));
  size_t nval = 0;
  for (size_t i = 0; i < nbk; ++i)
    for (const auto& j : rows[i]) {
      const int jj = int_field(j, "D_rows column");
      if (jj < 0 || jj >= static_cast<int>(nbk))
        return bad(path, "D_rows columns inside the blocks");
      p.D.push_entry(static_cast<int>(i), jj);
      nval += sizes[i] * sizes[jj];
    }
  p.D.finalize();
  if (a["D_values"].size() != nval) return bad(path, std::to_string(nval) + " D values");
  size_t pos = 0;
  for (int e = 0; e < p.D.nnz_blocks(); ++e) {
    auto B = p.D.entry(e);
    std::memcpy(B.data(), a["D_values"].data() + pos, B.size() * sizeof(double));
    pos += B.size();
  }
  const auto nb = static_cast<size_t>(p.num_bodies);
  if (a["M"].size() != 36 * nb || a["Minv"].size() != 36 * nb)
    return bad(path, "M and Minv of " + std::to_string(nb) + " bodies");
  p.M.resize(nb);
  p.Minv.resize(nb);
  for (size_t k = 0; k < nb; ++k) {
    std::memcpy(p.M[k].data(), a["M"].data() + 36 * k, 36 * sizeof(double));
    std::memcpy(p.Minv[k].data(), a["Minv"].data() + 36 * k, 36 * sizeof(double));
  }
  p.u_minus = vec(a["u_minus"]);
  p.generalized_force = vec(a["h"]);
  p.u_free = vec(a["u_free"]);
  p.has_dense = h.at("has_dense").get<bool>();
  if (p.has_dense) {
    if (a["D_dense"].size() != static_cast<size_t>(p.nl) * p.nl)
      return bad(path, "nl^2 D_dense values");
    p.D_dense = Eigen::Map<const MatX>(a["D_dense"].data(), p.nl, p.nl);
  }
  p.v_f = vec(a["v_f"]);
  p.v_minus = vec(a["v_minus"]);
  p.f = vec(a["f"]);
  p.R = vec(a["R"]);
  p.v_r = vec(a["v_r"]);
  if (const std::string why = p.validate(); !why.empty()) return bad(path, "a valid Problem", why);
  return p;
}

void write_problem(const Problem& p, std::ostream& out) {
  nlohmann::json h;
  h["format"] = "moreau-problem";
  h["version"] = 1;
  h["byte_order"] = "little";
  h["nl"] = p.nl;
  h["num_bodies"] = p.num_bodies;
  h["has_dense"] = p.has_dense;
  h["block_fields"] = {"kind",  "cone",   "offset", "size", "body0",
                       "body1", "source", "dof",    "id",   "rotor_rows"};
  h["blocks"] = nlohmann::json::array();
  for (const ConstraintBlock& b : p.blocks)
    h["blocks"].push_back({static_cast<int>(b.kind), static_cast<int>(b.cone), b.offset, b.size,
                           b.body[0], b.body[1], b.source, b.dof, b.id, b.rotor_rows});
  h["D_rows"] = nlohmann::json::array();
  for (int i = 0; i < p.D.num_blocks(); ++i) {
    nlohmann::json r = nlohmann::json::array();
    for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e) r.push_back(p.D.entry_col(e));
    h["D_rows"].push_back(r);
  }
  const Arrays arrays = collect(p);
  h["arrays"] = nlohmann::json::array();
  for (const auto& [name, v] : arrays) h["arrays"].push_back({name, v.size()});
  out << kMagic << '\n' << h.dump() << '\n';
  for (const auto& [name, v] : arrays)
    for (double x : v) {
      const uint64_t u = to_little(std::bit_cast<uint64_t>(x));
      out.write(reinterpret_cast<const char*>(&u), sizeof u);
    }
}

Result<Problem> read_problem(std::istream& in, const std::string& path) {
  std::string magic, header;
  std::getline(in, magic);
  if (magic != kMagic)
    return bad(path, std::string("first line '") + kMagic + "'", "'" + magic.substr(0, 40) + "'");
  std::getline(in, header);
  // The arrays' sizes are checked against the bytes left in the file before any allocation: a
  // corrupt header must not ask for gigabytes.
  const std::streamoff data_begin = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff data_end = in.tellg();
  in.seekg(data_begin);
  size_t doubles_left = data_begin < 0 || data_end < data_begin
                            ? 0
                            : static_cast<size_t>(data_end - data_begin) / sizeof(double);
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(header);
    std::map<std::string, std::vector<double>> arrays;
    for (const auto& entry : h.at("arrays")) {
      const std::string name = entry.at(0).get<std::string>();
      const auto n = static_cast<size_t>(
          integer(entry.at(1), 0, std::numeric_limits<long long>::max(), "array length"));
      if (n > doubles_left)
        return bad(path, "array '" + name + "' of " + std::to_string(n) + " doubles", "truncated");
      doubles_left -= n;
      std::vector<double>& v = arrays[name];
      v.resize(n);
      for (size_t k = 0; k < n; ++k) {
        uint64_t u;
        if (!in.read(reinterpret_cast<char*>(&u), sizeof u))
          return bad(path, "array '" + name + "' of " + std::to_string(n) + " doubles",
                     "truncated");
        v[k] = std::bit_cast<double>(to_little(u));
      }
    }
    for (const char* name :
         {"dt", "block_mu", "block_restitution", "block_J", "M", "Minv", "u_minus", "h", "u_free",
          "D_values", "D_dense", "v_f", "v_minus", "f", "R", "v_r"})
      if (!arrays.count(name)) return bad(path, std::string("array '") + name + "'", "missing");
    if (arrays["dt"].size() != 1) return bad(path, "one dt");
    return build(h, arrays, path);
  } catch (const nlohmann::json::exception& e) {
    return bad(path, "a valid JSON header", e.what());
  } catch (const HeaderError& e) {
    return bad(path, "a valid JSON header", e.what());
  }
}

}  // namespace

std::optional<Error> save_problem(const Problem& p, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Error{path, 0, "problem dump", "a writable file", "cannot open"};
  write_problem(p, out);
  out.flush();
  if (!out) return Error{path, 0, "problem dump", "a complete write", "write failed"};
  return std::nullopt;
}

Result<Problem> load_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return bad(path, "a readable file", "cannot open");
  return read_problem(in, path);
}

std::string problem_to_bytes(const Problem& p) {
  std::ostringstream out(std::ios::binary);
  write_problem(p, out);
  return out.str();
}

Result<Problem> problem_from_bytes(const std::string& bytes, const std::string& label) {
  std::istringstream in(bytes, std::ios::binary);
  return read_problem(in, label);
}

}  // namespace moreau
