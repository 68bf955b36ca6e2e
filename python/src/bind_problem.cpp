// The step's Problem as arrays (report eq. 11, 57-58, 94): the dual view (D dense or as CSR
// triplets a scipy.sparse.csr_matrix takes, v_f, one cone per block) and the primal view (M,
// M^-1, J, u^-, h, u_free); a Problem from arrays; .mprob and FCLib files; pickling.
#include "common.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/problem_io.hpp"

namespace moreau::python {

namespace {

const char* cone_name(ConeKind c) {
  switch (c) {
    case ConeKind::Free:
      return "free";
    case ConeKind::Orthant:
      return "orthant";
    case ConeKind::Coulomb:
      return "coulomb";
    case ConeKind::Box:
      return "box";
  }
  return "?";
}

ConeKind parse_cone(const std::string& s) {
  if (s == "free") return ConeKind::Free;
  if (s == "orthant") return ConeKind::Orthant;
  if (s == "coulomb") return ConeKind::Coulomb;
  throw InputError("cone '" + s + "': expected free, orthant or coulomb");
}

py::array_t<double> dense_D(const Problem& p) {
  MatX D;
  p.D.to_dense(D);
  py::array_t<double> out({static_cast<py::ssize_t>(p.nl), static_cast<py::ssize_t>(p.nl)});
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      out.mutable_data(), p.nl, p.nl) = D;
  return out;
}

// (data, indices, indptr, (nl, nl)): every stored entry of D's stored blocks, rows ascending,
// columns ascending within a row (scipy.sparse.csr_matrix((data, indices, indptr), shape)).
py::tuple csr_D(const Problem& p) {
  const BlockSparse& D = p.D;
  std::vector<double> data;
  std::vector<int> indices, indptr{0};
  for (int i = 0; i < D.num_blocks(); ++i)
    for (int r = 0; r < D.block_size(i); ++r) {
      for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
        const int j = D.entry_col(e);
        const auto B = D.entry(e);
        for (int c = 0; c < D.block_size(j); ++c) {
          data.push_back(B(r, c));
          indices.push_back(D.block_offset(j) + c);
        }
      }
      indptr.push_back(static_cast<int>(indices.size()));
    }
  return py::make_tuple(to_numpy(data), py::array_t<int>(indices.size(), indices.data()),
                        py::array_t<int>(indptr.size(), indptr.data()), py::make_tuple(p.nl, p.nl));
}

// J (nl, 6 nb) dense, from the blocks' body Jacobians.
py::array_t<double> dense_J(const Problem& p) {
  py::array_t<double> out(
      {static_cast<py::ssize_t>(p.nl), static_cast<py::ssize_t>(6 * p.num_bodies)});
  std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0.0);
  auto o = out.mutable_unchecked<2>();
  for (const ConstraintBlock& b : p.blocks)
    for (int k = 0; k < 2; ++k)
      if (b.body[k] >= 0 && b.body[k] < p.num_bodies)
        for (int r = 0; r < b.size; ++r)
          for (int c = 0; c < 6; ++c) o(b.offset + r, 6 * b.body[k] + c) += b.J[k](r, c);
  return out;
}

py::array_t<double> mats(const std::vector<Mat6>& v) {
  py::array_t<double> out({static_cast<py::ssize_t>(v.size()), py::ssize_t{6}, py::ssize_t{6}});
  auto o = out.mutable_unchecked<3>();
  for (size_t b = 0; b < v.size(); ++b)
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) o(b, r, c) = v[b](r, c);
  return out;
}

py::list blocks(const Problem& p) {
  py::list out;
  for (const ConstraintBlock& b : p.blocks) {
    py::dict d;
    d["kind"] = row_kind_name(b.kind);
    d["cone"] = cone_name(b.cone);
    d["offset"] = b.offset;
    d["size"] = b.size;
    d["bodies"] = py::make_tuple(b.body[0], b.body[1]);
    d["mu"] = b.mu;
    d["bound"] = b.bound;  // box (joint dry friction): |lambda| <= bound
    d["restitution"] = b.restitution;
    d["id"] = b.id;
    d["source"] = b.source;
    d["dof"] = b.dof;
    // joints: the last rotor_rows rows are the armature rows (docs/dynamics.md)
    d["rotor_rows"] = b.rotor_rows;
    out.append(d);
  }
  return out;
}

// A dual-only Problem (num_bodies 0): D (nl, nl) dense, stored block by block where non-zero;
// v_f (nl); cones, one per block ("free" of any size, "orthant" of 1 row, "coulomb" of 3 rows
// [t, o, n]); mu per block (used by coulomb blocks).
Problem from_arrays(const py::handle& D_in, const py::handle& vf_in,
                    const std::vector<std::string>& cones, const std::vector<int>& sizes,
                    const py::handle& mu_in, double dt) {
  const int nb = static_cast<int>(cones.size());
  if (static_cast<int>(sizes.size()) != nb)
    throw InputError("sizes: expected one per cone (" + std::to_string(nb) + "), got " +
                     std::to_string(sizes.size()));
  Problem p;
  p.dt = dt;
  const VecX mu = mu_in.is_none() ? VecX::Zero(nb) : vector_from(mu_in, nb, "mu");
  int off = 0;
  for (int i = 0; i < nb; ++i) {
    ConstraintBlock b;
    b.cone = parse_cone(cones[i]);
    b.kind = b.cone == ConeKind::Coulomb   ? RowKind::Contact
             : b.cone == ConeKind::Orthant ? RowKind::Limit
                                           : RowKind::Joint;
    b.size = sizes[i];
    const int want = b.cone == ConeKind::Coulomb ? 3 : b.cone == ConeKind::Orthant ? 1 : -1;
    if (b.size < 1 || b.size > 6 || (want > 0 && b.size != want))
      throw InputError("block " + std::to_string(i) + " (" + cones[i] +
                       "): " + std::to_string(b.size) + " rows is not a valid size");
    b.offset = off;
    b.mu = mu[i];
    b.id = static_cast<uint64_t>(i);
    off += b.size;
    p.blocks.push_back(b);
  }
  p.nl = off;
  const Array D = array_of_shape(D_in, {off, off}, "D");
  p.v_f = vector_from(vf_in, off, "v_f");
  p.v_minus.setZero(off);
  p.f.setZero(off);
  p.D.begin(sizes.data(), nb);
  auto block_nonzero = [&](int i, int j) {
    for (int r = 0; r < sizes[i]; ++r)
      for (int c = 0; c < sizes[j]; ++c)
        if (D.at(p.blocks[i].offset + r, p.blocks[j].offset + c) != 0.0) return true;
    return false;
  };
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j)
      if (i == j || block_nonzero(i, j)) p.D.push_entry(i, j);
  p.D.finalize();
  for (int i = 0; i < nb; ++i)
    for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e) {
      const int j = p.D.entry_col(e);
      auto B = p.D.entry(e);
      for (int r = 0; r < sizes[i]; ++r)
        for (int c = 0; c < sizes[j]; ++c)
          B(r, c) = D.at(p.blocks[i].offset + r, p.blocks[j].offset + c);
    }
  if (const std::string why = p.validate(); !why.empty()) throw InputError("Problem: " + why);
  return p;
}

py::bytes to_bytes(const Problem& p) {
  return py::bytes(problem_to_bytes(p));
}

Problem from_bytes(const py::bytes& b) {
  Result<Problem> r = problem_from_bytes(std::string(b), "pickled Problem");
  if (!r) throw InputError(r.error().message());
  return std::move(*r);
}

}  // namespace

void bind_problem(py::module_& m) {
  py::class_<Problem>(m, "Problem",
                      "One time step's problem (docs/design.md): the dual view D lambda + v_f "
                      "with one cone per block, and the primal view (M, J, u^-, h).")
      .def_static("from_arrays", &from_arrays, py::arg("D"), py::arg("v_f"), py::arg("cones"),
                  py::arg("sizes"), py::arg("mu") = py::none(), py::arg("dt") = 0.0,
                  "A dual-only Problem from a dense D, v_f and one cone per block "
                  "('free', 'orthant' or 'coulomb' [t, o, n]) with its size and mu.")
      .def_readonly("dt", &Problem::dt)
      .def_readonly("nl", &Problem::nl)
      .def_readonly("num_bodies", &Problem::num_bodies)
      .def_property_readonly("num_blocks", &Problem::num_blocks)
      .def_property_readonly("softened", [](const Problem& p) { return p.R.size() > 0; })
      .def("D_dense", &dense_D, "D = J M^-1 J^T (eq. 11) as a dense (nl, nl) array.")
      .def("D_csr", &csr_D,
           "D as (data, indices, indptr, shape): scipy.sparse.csr_matrix((data, indices, "
           "indptr), shape) rebuilds it.")
      .def_property_readonly("v_f", [](const Problem& p) { return to_numpy(p.v_f); })
      .def_property_readonly("v_minus", [](const Problem& p) { return to_numpy(p.v_minus); })
      .def_property_readonly(
          "f", [](const Problem& p) { return to_numpy(p.f); },
          "configuration residual per row (eq. 84)")
      .def_property_readonly("R", [](const Problem& p) { return to_numpy(p.R); })
      .def_property_readonly("v_r", [](const Problem& p) { return to_numpy(p.v_r); })
      .def_property_readonly("blocks", &blocks,
                             "one dict per block: kind, cone, offset, size, bodies, mu, "
                             "restitution, id, source")
      .def_property_readonly("cones",
                             [](const Problem& p) {
                               std::vector<std::string> c;
                               for (const ConstraintBlock& b : p.blocks)
                                 c.push_back(cone_name(b.cone));
                               return c;
                             })
      .def_property_readonly("mu",
                             [](const Problem& p) {
                               std::vector<double> mu;
                               for (const ConstraintBlock& b : p.blocks) mu.push_back(b.mu);
                               return to_numpy(mu);
                             })
      .def_property_readonly("block_offsets",
                             [](const Problem& p) {
                               std::vector<int> o;
                               for (const ConstraintBlock& b : p.blocks) o.push_back(b.offset);
                               return o;
                             })
      .def_property_readonly("block_sizes",
                             [](const Problem& p) {
                               std::vector<int> o;
                               for (const ConstraintBlock& b : p.blocks) o.push_back(b.size);
                               return o;
                             })
      .def_property_readonly(
          "M", [](const Problem& p) { return mats(p.M); },
          "body mass matrices (nb, 6, 6), world frame (eq. 57-58)")
      .def_property_readonly("Minv", [](const Problem& p) { return mats(p.Minv); })
      .def("J", &dense_J, "the constraint Jacobian (nl, 6 nb), dense")
      .def_property_readonly("u_minus", [](const Problem& p) { return to_numpy(p.u_minus); })
      .def_property_readonly(
          "generalized_force", [](const Problem& p) { return to_numpy(p.generalized_force); },
          "h (eq. 72), 6 nb")
      .def_property_readonly("u_free", [](const Problem& p) { return to_numpy(p.u_free); })
      .def("validate", &Problem::validate, "'' when valid, else why not")
      .def(
          "save",
          [](const Problem& p, const std::string& path) {
            if (auto e = save_problem(p, path)) throw InputError(e->message());
          },
          py::arg("path"), "Writes a .mprob dump (exact).")
      .def_static(
          "load",
          [](const std::string& path) {
            Result<Problem> r = load_problem(path);
            if (!r) throw InputError(r.error().message());
            return std::move(*r);
          },
          py::arg("path"), "Reads a .mprob dump.")
      .def("to_bytes", &to_bytes)
      .def_static("from_bytes", &from_bytes)
      .def(py::pickle([](const Problem& p) { return to_bytes(p); },
                      [](const py::bytes& b) { return from_bytes(b); }))
      .def("__repr__", [](const Problem& p) {
        return "<moreau.Problem nl=" + std::to_string(p.nl) +
               " blocks=" + std::to_string(p.num_blocks()) +
               " contacts=" + std::to_string(p.count(RowKind::Contact)) + ">";
      });

  m.def("fclib_supported", &fclib_supported, "whether this build reads and writes FCLib (HDF5)");
  m.def(
      "load_fclib",
      [](const std::string& path) {
        Result<FclibProblem> r = load_fclib(path);
        if (!r) throw InputError(r.error().message());
        py::dict info;
        info["kind"] = r->kind;
        info["title"] = r->title;
        info["description"] = r->description;
        info["contacts"] = r->contacts;
        info["asymmetry"] = r->asymmetry;
        info["solution"] = to_numpy(r->solution);
        return py::make_tuple(std::move(r->problem), info);
      },
      py::arg("path"),
      "Reads an FCLib local or global problem: (Problem, info dict with kind, title, "
      "description, contacts, asymmetry, solution).");
  m.def(
      "save_fclib",
      [](const Problem& p, const std::string& path, const std::string& title,
         const std::string& description) {
        if (auto e = save_fclib_local(p, path, title, description)) throw InputError(e->message());
      },
      py::arg("problem"), py::arg("path"), py::arg("title") = "", py::arg("description") = "",
      "Writes a contact-only Problem as an FCLib local problem.");
}

}  // namespace moreau::python
