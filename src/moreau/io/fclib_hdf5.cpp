// Reading FCLib HDF5 files through HDF5's C API (layout of FCLib's fclib.c: /fclib_local/W,
// /fclib_local/vectors/{q,mu}, /fclib_global/{M,H,G}, /fclib_global/vectors/{f,w,mu,b},
// matrices as groups {m, n, nz, nzmax, p, i, x}: nz >= 0 triplet (i rows, p columns, as in
// CSparse), nz = -1 CSC, nz = -2 CSR; a 2-D dataset is read as a dense matrix).
#include "moreau/io/fclib.hpp"

#ifdef MOREAU_HAVE_HDF5
#include <hdf5.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace moreau {

#ifndef MOREAU_HAVE_HDF5

bool fclib_supported() {
  return false;
}
Result<FclibProblem> load_fclib_in_process(const std::string& path) {
  return Error{path, 0, "FCLib file", "moreau built with HDF5 (install libhdf5-dev, reconfigure)",
               "built without HDF5"};
}
std::optional<Error> save_fclib_local(const Problem&, const std::string& path, const std::string&,
                                      const std::string&) {
  return Error{path, 0, "FCLib file", "moreau built with HDF5 (install libhdf5-dev, reconfigure)",
               "built without HDF5"};
}

#else

bool fclib_supported() {
  return true;
}

namespace {

// Closes an HDF5 handle on scope exit.
struct Handle {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  ~Handle() {
    if (id >= 0 && close) close(id);
  }
};

// Silences HDF5's error stack printing for the duration of a load (restored afterwards).
struct QuietErrors {
  H5E_auto2_t func = nullptr;
  void* data = nullptr;
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func, data); }
};

// A number format read without libhdf5's conversion: IEEE binary32/64 or a 1- to 8-byte
// integer, signed or not, little or big endian.
struct PlainType {
  bool is_float = false, is_signed = false, big_endian = false;
  size_t size = 0;
  double decode(const unsigned char* b) const {
    uint64_t u = 0;
    for (size_t i = 0; i < size; ++i) u |= uint64_t{b[big_endian ? size - 1 - i : i]} << (8 * i);
    if (is_float && size == 4) {
      float f;
      const auto w = static_cast<uint32_t>(u);
      std::memcpy(&f, &w, 4);
      return f;
    }
    if (is_float) {
      double x;
      std::memcpy(&x, &u, 8);
      return x;
    }
    if (is_signed && size < 8 && (u >> (8 * size - 1)) != 0) u |= ~uint64_t{0} << (8 * size);
    return is_signed ? static_cast<double>(static_cast<int64_t>(u)) : static_cast<double>(u);
  }
};

std::optional<PlainType> plain_type(hid_t type) {
  struct Known {
    hid_t id;
    PlainType t;
  };
  const Known known[] = {
      {H5T_IEEE_F32LE, {true, true, false, 4}},  {H5T_IEEE_F32BE, {true, true, true, 4}},
      {H5T_IEEE_F64LE, {true, true, false, 8}},  {H5T_IEEE_F64BE, {true, true, true, 8}},
      {H5T_STD_I8LE, {false, true, false, 1}},   {H5T_STD_I8BE, {false, true, true, 1}},
      {H5T_STD_U8LE, {false, false, false, 1}},  {H5T_STD_U8BE, {false, false, true, 1}},
      {H5T_STD_I16LE, {false, true, false, 2}},  {H5T_STD_I16BE, {false, true, true, 2}},
      {H5T_STD_U16LE, {false, false, false, 2}}, {H5T_STD_U16BE, {false, false, true, 2}},
      {H5T_STD_I32LE, {false, true, false, 4}},  {H5T_STD_I32BE, {false, true, true, 4}},
      {H5T_STD_U32LE, {false, false, false, 4}}, {H5T_STD_U32BE, {false, false, true, 4}},
      {H5T_STD_I64LE, {false, true, false, 8}},  {H5T_STD_I64BE, {false, true, true, 8}},
      {H5T_STD_U64LE, {false, false, false, 8}}, {H5T_STD_U64BE, {false, false, true, 8}},
  };
  for (const Known& k : known)
    if (H5Tequal(type, k.id) > 0) return k.t;
  return std::nullopt;
}

struct Reader {
  hid_t file;
  std::string path;

  bool exists(const std::string& name) const {
    // H5Lexists needs every intermediate link to exist: check each prefix.
    size_t pos = 0;
    while ((pos = name.find('/', pos + 1)) != std::string::npos)
      if (H5Lexists(file, name.substr(0, pos).c_str(), H5P_DEFAULT) <= 0) return false;
    return H5Lexists(file, name.c_str(), H5P_DEFAULT) > 0;
  }
  hsize_t file_size() const {
    hsize_t size = 0;
    H5Fget_filesize(file, &size);
    return size;
  }
  // The most bytes of values a file of this size may declare: 256 times its size (compression
  // of real numbers does not reach that) plus 16 MiB.
  static hsize_t max_bytes(hsize_t file_size) { return 256 * file_size + (hsize_t{16} << 20); }
  Error err(const std::string& ds, const std::string& expected, const std::string& got) const {
    return Error{path, 0, "dataset " + ds, expected, got};
  }
  // Reads a numeric dataset (any rank) as doubles or ints; dims returned.
  template <class T>
  Result<std::vector<T> > read(const std::string& ds, std::vector<hsize_t>* dims = nullptr) const {
    if (!exists(ds)) return err(ds, "present", "missing");
    Handle d{H5Dopen2(file, ds.c_str(), H5P_DEFAULT), H5Dclose};
    if (d.id < 0) return err(ds, "a dataset", "not readable");
    Handle sp{H5Dget_space(d.id), H5Sclose};
    Handle ty{H5Dget_type(d.id), H5Tclose};
    const H5T_class_t cls = H5Tget_class(ty.id);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) return err(ds, "numbers", "a non-numeric type");
    if (std::is_integral_v<T> && cls != H5T_INTEGER) return err(ds, "integers", "floating point");
    const int rank = H5Sget_simple_extent_ndims(sp.id);
    if (rank < 0 || rank > 2)
      return err(ds, "a scalar, vector or matrix", "rank " + std::to_string(rank));
    std::vector<hsize_t> dd(rank);
    H5Sget_simple_extent_dims(sp.id, dd.data(), nullptr);
    // The declared extent is checked before anything is allocated (max_bytes).
    hsize_t count = 1;
    const hsize_t file_size = this->file_size();
    bool too_large = false;
    for (hsize_t x : dd) {
      if (x != 0 && count > std::numeric_limits<hsize_t>::max() / x) too_large = true;
      count *= x;
    }
    if (too_large || count > max_bytes(file_size) / sizeof(T))
      return err(ds, "an extent the file can hold (" + std::to_string(file_size) + " bytes)",
                 too_large ? std::string("an extent overflowing 64 bits")
                           : std::to_string(count) + " entries");
    std::vector<T> out(count);
    Handle dcpl{H5Dget_create_plist(d.id), H5Pclose};
    if (count > 0 && H5Pget_layout(dcpl.id) == H5D_CONTIGUOUS) {
      // Contiguous data is read from the file's bytes, not through H5Dread: libhdf5 1.10's
      // contiguous read copies from a null pointer on some corrupt files (fuzz/README.md).
      if (auto e = read_contiguous(ds, d.id, dcpl.id, ty.id, file_size, out)) return *e;
    } else if (count > 0) {
      // A compact dataset's values live in its header: libhdf5 copies from a null buffer when
      // the header holds fewer bytes than the extent names (fuzz/README.md).
      if (H5Pget_layout(dcpl.id) == H5D_COMPACT &&
          H5Dget_storage_size(d.id) != count * H5Tget_size(ty.id))
        return err(ds, std::to_string(count * H5Tget_size(ty.id)) + " bytes of compact data",
                   std::to_string(H5Dget_storage_size(d.id)));
      const hid_t mem = std::is_integral_v<T> ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
      if (H5Dread(d.id, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
        return err(ds, "readable data", "a read error");
    }
    if (dims) *dims = dd;
    return out;
  }
  // Reads a contiguous dataset's values from the file's bytes (count = out.size()).
  template <class T>
  std::optional<Error> read_contiguous(const std::string& ds, hid_t d, hid_t dcpl, hid_t type,
                                       hsize_t file_size, std::vector<T>& out) const {
    const std::optional<PlainType> pt = plain_type(type);
    if (!pt) return err(ds, "IEEE binary32/64 or 1- to 8-byte integers", "another number format");
    if (H5Pget_external_count(dcpl) != 0)
      return err(ds, "values stored in the file", "external storage");
    const haddr_t offset = H5Dget_offset(d);  // from the file's first byte (user block included)
    if (offset == HADDR_UNDEF) {              // never written: every value is the fill value
      T fill{};
      const hid_t mem = std::is_integral_v<T> ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
      if (H5Pget_fill_value(dcpl, mem, &fill) < 0)
        return err(ds, "stored values or a fill value", "neither");
      std::fill(out.begin(), out.end(), fill);
      return std::nullopt;
    }
    const hsize_t bytes = static_cast<hsize_t>(out.size()) * pt->size;
    if (offset > file_size || bytes > file_size - offset)
      return err(ds, "values inside the file (" + std::to_string(file_size) + " bytes)",
                 std::to_string(bytes) + " bytes at offset " + std::to_string(offset));
    std::vector<unsigned char> raw(bytes);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    const bool ok = f && fseeko(f, static_cast<off_t>(offset), SEEK_SET) == 0 &&
                    std::fread(raw.data(), 1, raw.size(), f) == raw.size();
    if (f) std::fclose(f);
    if (!ok) return err(ds, "readable values", "a short read");
    for (size_t k = 0; k < out.size(); ++k) {
      const double x = pt->decode(raw.data() + k * pt->size);
      if constexpr (std::is_integral_v<T>) {
        if (!(x >= std::numeric_limits<T>::min() && x <= std::numeric_limits<T>::max()))
          return err(ds + "[" + std::to_string(k) + "]", "an int", error_number(x));
        out[k] = static_cast<T>(x);
      } else {
        out[k] = x;
      }
    }
    return std::nullopt;
  }
  Result<int> scalar(const std::string& ds) const {
    auto v = read<int>(ds);
    if (!v) return v.error();
    if (v->size() != 1) return err(ds, "one integer", std::to_string(v->size()) + " values");
    return (*v)[0];
  }
  Result<VecX> vec(const std::string& ds, int n) const {
    auto v = read<double>(ds);
    if (!v) return v.error();
    if (static_cast<int>(v->size()) != n)
      return err(ds, std::to_string(n) + " entries", std::to_string(v->size()));
    VecX out = Eigen::Map<const VecX>(v->data(), n);
    for (int k = 0; k < n; ++k)
      if (!std::isfinite(out[k]))
        return err(ds + "[" + std::to_string(k) + "]", "a finite number", std::to_string(out[k]));
    return out;
  }
  Result<Eigen::SparseMatrix<double> > matrix(const std::string& g) const;
};

Result<Eigen::SparseMatrix<double> > Reader::matrix(const std::string& g) const {
  if (!exists(g)) return err(g, "present", "missing");
  H5O_info_t info;
  if (H5Oget_info_by_name(file, g.c_str(), &info, H5P_DEFAULT) >= 0 &&
      info.type == H5O_TYPE_DATASET) {  // dense storage
    std::vector<hsize_t> dims;
    auto x = read<double>(g, &dims);
    if (!x) return x.error();
    if (dims.size() != 2)
      return err(g, "a 2-D dense matrix", "rank " + std::to_string(dims.size()));
    const Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> > A(
        x->data(), static_cast<int>(dims[0]), static_cast<int>(dims[1]));
    return Eigen::SparseMatrix<double>(MatX(A).sparseView(1.0, 0.0));
  }
  auto m = scalar(g + "/m"), n = scalar(g + "/n"), nz = scalar(g + "/nz");
  if (!m) return m.error();
  if (!n) return n.error();
  if (!nz) return nz.error();
  if (*m < 0 || *n < 0)
    return err(g + "/m, n", "sizes >= 0", std::to_string(*m) + ", " + std::to_string(*n));
  // Rows and columns index values the file stores (q has m of them): bounded like a dataset's
  // extent, before the matrix allocates its column starts.
  const hsize_t most = max_bytes(file_size()) / sizeof(double);
  if (static_cast<hsize_t>(*m) > most || static_cast<hsize_t>(*n) > most)
    return err(g + "/m, n", "at most " + std::to_string(most) + " rows and columns (file size)",
               std::to_string(*m) + ", " + std::to_string(*n));
  auto p = read<int>(g + "/p");
  auto ii = read<int>(g + "/i");
  auto x = read<double>(g + "/x");
  if (!p) return p.error();
  if (!ii) return ii.error();
  if (!x) return x.error();
  std::vector<Eigen::Triplet<double> > t;
  auto add = [&](long r, long c, long k) -> bool {
    if (r < 0 || r >= *m || c < 0 || c >= *n || k >= static_cast<long>(x->size())) return false;
    t.emplace_back(static_cast<int>(r), static_cast<int>(c), (*x)[k]);
    return true;
  };
  if (*nz >= 0) {  // triplet: i = row, p = column
    if (static_cast<int>(p->size()) < *nz || static_cast<int>(ii->size()) < *nz)
      return err(g + "/p, i", std::to_string(*nz) + " entries (nz)", "fewer");
    for (int k = 0; k < *nz; ++k)
      if (!add((*ii)[k], (*p)[k], k))
        return err(g + "/i, p", "indices inside m x n", "entry " + std::to_string(k));
  } else if (*nz == -1 || *nz == -2) {  // compressed columns / rows
    const int outer = *nz == -1 ? *n : *m;
    if (static_cast<int>(p->size()) != outer + 1)
      return err(g + "/p", std::to_string(outer + 1) + " pointers", std::to_string(p->size()));
    for (int o = 0; o < outer; ++o) {
      if ((*p)[o] > (*p)[o + 1] || (*p)[o] < 0 || (*p)[o + 1] > static_cast<int>(ii->size()))
        return err(g + "/p", "non-decreasing pointers into i", "p[" + std::to_string(o) + "]");
      for (int k = (*p)[o]; k < (*p)[o + 1]; ++k) {
        const bool ok = *nz == -1 ? add((*ii)[k], o, k) : add(o, (*ii)[k], k);
        if (!ok) return err(g + "/i", "indices inside m x n", "entry " + std::to_string(k));
      }
    }
  } else {
    return err(g + "/nz", ">= 0 (triplet), -1 (CSC) or -2 (CSR)", std::to_string(*nz));
  }
  for (const auto& e : t)
    if (!std::isfinite(e.value()))
      return err(g + "/x", "finite numbers",
                 "entry (" + std::to_string(e.row()) + ", " + std::to_string(e.col()) +
                     ") = " + std::to_string(e.value()));
  Eigen::SparseMatrix<double> A(*m, *n);
  A.setFromTriplets(t.begin(), t.end());  // duplicates are summed (CSparse semantics)
  return A;
}

Result<FclibProblem> load_local(const Reader& rd) {
  auto W = rd.matrix("/fclib_local/W");
  if (!W) return W.error();
  if (rd.exists("/fclib_local/V") || rd.exists("/fclib_local/R"))
    return rd.err("/fclib_local/V, R", "no equality constraints (mixed problem)", "present");
  auto q = rd.vec("/fclib_local/vectors/q", static_cast<int>(W->rows()));
  if (!q) return q.error();
  auto mu = rd.vec("/fclib_local/vectors/mu", static_cast<int>(W->rows() / 3));
  if (!mu) return mu.error();
  return fclib_local_problem(*W, *q, *mu, rd.path);
}

Result<FclibProblem> load_global(const Reader& rd) {
  if (rd.exists("/fclib_global/G"))
    return rd.err("/fclib_global/G", "no equality constraints (not supported)", "present");
  auto M = rd.matrix("/fclib_global/M");
  if (!M) return M.error();
  auto H = rd.matrix("/fclib_global/H");
  if (!H) return H.error();
  auto f = rd.vec("/fclib_global/vectors/f", static_cast<int>(M->rows()));
  if (!f) return f.error();
  auto w = rd.vec("/fclib_global/vectors/w", static_cast<int>(H->cols()));
  if (!w) return w.error();
  auto mu = rd.vec("/fclib_global/vectors/mu", static_cast<int>(H->cols() / 3));
  if (!mu) return mu.error();
  return fclib_global_problem(*M, *H, *f, *w, *mu, rd.path);
}

std::string read_string(const Reader& rd, const std::string& ds) {
  if (!rd.exists(ds)) return {};
  Handle d{H5Dopen2(rd.file, ds.c_str(), H5P_DEFAULT), H5Dclose};
  Handle ty{H5Dget_type(d.id), H5Tclose};
  if (d.id < 0 || H5Tget_class(ty.id) != H5T_STRING || H5Tis_variable_str(ty.id) > 0) return {};
  std::string s(H5Tget_size(ty.id), '\0');
  if (H5Dread(d.id, ty.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data()) < 0) return {};
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

}  // namespace

Result<FclibProblem> load_fclib_in_process(const std::string& path) {
  QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0)
    return Error{path, 0, "FCLib file", "a readable HDF5 file", "not HDF5 or not readable"};
  Handle f{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  if (f.id < 0) return Error{path, 0, "FCLib file", "a readable HDF5 file", "open failed"};
  const Reader rd{f.id, path};
  const bool local = rd.exists("/fclib_local"), global = rd.exists("/fclib_global");
  if (!local && !global)
    return Error{path, 0, "FCLib file", "a group /fclib_local or /fclib_global", "neither"};
  const std::string root = local ? "/fclib_local" : "/fclib_global";
  if (rd.exists(root + "/spacedim")) {
    auto dim = rd.scalar(root + "/spacedim");
    if (!dim) return dim.error();
    if (*dim != 3) return rd.err(root + "/spacedim", "3 (3-D friction)", std::to_string(*dim));
  }
  Result<FclibProblem> r = local ? load_local(rd) : load_global(rd);
  if (!r) return r;
  r->title = read_string(rd, root + "/info/title");
  r->description = read_string(rd, root + "/info/description");
  if (rd.exists("/solution/r")) {
    auto s = rd.vec("/solution/r", r->problem.nl);
    if (s) {
      r->solution.resize(r->problem.nl);
      for (int c = 0; c < r->contacts; ++c)
        for (int k = 0; k < 3; ++k) r->solution[3 * c + k] = (*s)[3 * c + fclib_coordinate(k)];
    }
  }
  return r;
}

namespace {

// Writes datasets under an open file; the first failure is remembered.
struct Writer {
  hid_t file;
  bool ok = true;
  void group(const char* name) {
    Handle g{H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose};
    ok = ok && g.id >= 0;
  }
  template <class T>
  void array(const std::string& name, const std::vector<T>& v) {
    const hsize_t n = v.size();
    const hid_t type = std::is_integral_v<T> ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
    Handle sp{H5Screate_simple(1, &n, nullptr), H5Sclose};
    Handle d{H5Dcreate2(file, name.c_str(), type, sp.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose};
    ok = ok && d.id >= 0 &&
         (n == 0 || H5Dwrite(d.id, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
  }
  void integer(const std::string& name, int x) { array(name, std::vector<int>{x}); }
  void text(const std::string& name, const std::string& t) {
    Handle ty{H5Tcopy(H5T_C_S1), H5Tclose};
    H5Tset_size(ty.id, std::max<size_t>(1, t.size()));
    Handle sp{H5Screate(H5S_SCALAR), H5Sclose};
    Handle d{H5Dcreate2(file, name.c_str(), ty.id, sp.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose};
    const std::string padded = t.empty() ? std::string(1, '\0') : t;
    ok =
        ok && d.id >= 0 && H5Dwrite(d.id, ty.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, padded.data()) >= 0;
  }
};

}  // namespace

std::optional<Error> save_fclib_local(const Problem& p, const std::string& path,
                                      const std::string& title, const std::string& description) {
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone != ConeKind::Coulomb || b.size != 3 || b.offset != 3 * (&b - p.blocks.data()))
      return Error{path, 0, "Problem block " + std::to_string(&b - p.blocks.data()),
                   "contact rows only (FCLib local problem)",
                   b.kind == RowKind::Joint ? "joint rows" : "limit rows"};
  const int m = p.nl, nc = m / 3;
  // W(fc(k) + 3c, fc(l) + 3d) = D(k + 3c, l + 3d), from D's 3x3 blocks (CSC via Eigen).
  std::vector<Eigen::Triplet<double> > t;
  t.reserve(p.D.nnz() + (p.R.size() == m ? m : 0));
  for (int c = 0; c < nc; ++c)
    for (int e = p.D.row_start(c); e < p.D.row_start(c + 1); ++e) {
      const int d = p.D.entry_col(e);
      const auto B = p.D.entry(e);
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l)
          if (B(k, l) != 0.0)
            t.emplace_back(3 * c + fclib_coordinate(k), 3 * d + fclib_coordinate(l), B(k, l));
    }
  if (p.R.size() == m)
    for (int r = 0; r < m; ++r)
      t.emplace_back(r - r % 3 + fclib_coordinate(r % 3), r - r % 3 + fclib_coordinate(r % 3),
                     p.R[r]);
  Eigen::SparseMatrix<double> W(m, m);
  W.setFromTriplets(t.begin(), t.end());
  W.makeCompressed();
  const std::vector<int> colptr(W.outerIndexPtr(), W.outerIndexPtr() + m + 1),
      rowind(W.innerIndexPtr(), W.innerIndexPtr() + W.nonZeros());
  const std::vector<double> values(W.valuePtr(), W.valuePtr() + W.nonZeros());
  std::vector<int> perm(m);  // FCLib index -> moreau index
  for (int c = 0; c < nc; ++c)
    for (int k = 0; k < 3; ++k) perm[3 * c + fclib_coordinate(k)] = 3 * c + k;
  std::vector<double> q(m), mu(nc);
  for (int r = 0; r < m; ++r) q[r] = p.v_f[perm[r]];
  for (int c = 0; c < nc; ++c) mu[c] = p.blocks[c].mu;
  {
    QuietErrors quiet;
    Handle f{H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose};
    if (f.id < 0) return Error{path, 0, "FCLib file", "a writable path", "create failed"};
    Writer w{f.id};
    w.group("/fclib_local");
    w.integer("/fclib_local/spacedim", 3);
    w.group("/fclib_local/W");
    w.integer("/fclib_local/W/m", m);
    w.integer("/fclib_local/W/n", m);
    w.integer("/fclib_local/W/nz", -1);  // CSC
    w.integer("/fclib_local/W/nzmax", static_cast<int>(values.size()));
    w.array("/fclib_local/W/p", colptr);
    w.array("/fclib_local/W/i", rowind);
    w.array("/fclib_local/W/x", values);
    w.group("/fclib_local/vectors");
    w.array("/fclib_local/vectors/q", q);
    w.array("/fclib_local/vectors/mu", mu);
    w.group("/fclib_local/info");
    w.text("/fclib_local/info/title", title);
    w.text("/fclib_local/info/description", description);
    w.text("/fclib_local/info/math_info", "written by moreau: W = J M^-1 J^T, q = v_f");
    if (w.ok) return std::nullopt;
  }
  std::remove(path.c_str());
  return Error{path, 0, "FCLib file", "every dataset written", "an HDF5 write error"};
}

#endif  // MOREAU_HAVE_HDF5

}  // namespace moreau
