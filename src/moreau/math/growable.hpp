#pragma once
// Dynamic vectors and matrices with a capacity: "reserve for the largest problem seen; grow, never
// shrink" (docs/design.md, "Memory"). Eigen's VecX / MatX free and reallocate on every size change;
// a Growable keeps its storage and only reallocates when a size exceeds every size before it, so a
// step whose number of constraint rows changes allocates nothing once the largest problem has been
// seen.
//
// A Growable<VecX> is an Eigen::Map of the live size over the owned storage: it is used like a
// VecX in expressions (segment, dot, noalias, +=, passing as Eigen::Ref), and resize(), setZero(n),
// assignment from an expression and copies behave like VecX's (assignment resizes to the right-hand
// side). Differences to keep in mind: a function taking `const VecX&` receives a copy (a temporary,
// hence an allocation: take Eigen::Ref<const VecX> instead), and one taking `VecX&` does not
// compile (take a Growable& or an Eigen::Ref<VecX>). The storage is Eigen-aligned like a VecX's, so
// the Map is declared AlignedMax and expressions compile to the same kernels (same results, bit for
// bit).
#include <cassert>
#include <new>
#include <utility>

#include "moreau/math/types.hpp"

namespace moreau {

template <class Plain>
class Growable : public Eigen::Map<Plain, Eigen::AlignedMax> {
 public:
  using Base = Eigen::Map<Plain, Eigen::AlignedMax>;
  using Index = Eigen::Index;
  static constexpr bool kVector = Plain::ColsAtCompileTime == 1;
  using Store = Eigen::Matrix<double, Eigen::Dynamic, 1>;  // Eigen-aligned, as a VecX's data

  Growable() : Base(nullptr, 0, kVector ? 1 : 0) {}
  explicit Growable(Index n) : Growable() { resize(n); }
  Growable(Index rows, Index cols) : Growable() { resize(rows, cols); }
  Growable(const Growable& o) : Growable() { assign(o); }
  Growable(Growable&& o) noexcept : Growable() { swap(o); }
  template <class E>
  Growable(const Eigen::DenseBase<E>& e) : Growable() {  // NOLINT: implicit, as VecX's
    assign(e);
  }
  Growable& operator=(const Growable& o) {
    if (this != &o) assign(o);
    return *this;
  }
  Growable& operator=(Growable&& o) noexcept {
    swap(o);
    return *this;
  }
  template <class E>
  Growable& operator=(const Eigen::DenseBase<E>& e) {
    assign(e);
    return *this;
  }

  // Entries the storage holds without reallocating.
  Index capacity() const { return store_.size(); }
  // Live size n (rows x 1 for a vector); reallocates only when n exceeds capacity(). Contents are
  // unspecified after a size change, as after VecX::resize.
  void resize(Index n) {
    if constexpr (kVector)
      resize(n, 1);
    else
      resize(n, n);
  }
  void resize(Index rows, Index cols) {
    assert(rows >= 0 && cols >= 0 && (!kVector || cols == 1));
    if (rows * cols > store_.size()) store_.resize(rows * cols);
    rebind(rows, cols);
  }
  // Ensures capacity for n entries without changing the live size.
  void reserve(Index n) {
    if (n <= store_.size()) return;
    Store grown(n);
    grown.head(this->size()) = Eigen::Map<const Store>(store_.data(), this->size());
    const Index r = this->rows(), c = this->cols();
    store_.swap(grown);
    rebind(r, c);
  }
  using Base::setConstant;
  using Base::setOnes;
  using Base::setZero;
  Growable& setZero(Index n) {
    resize(n);
    Base::setZero();
    return *this;
  }
  Growable& setZero(Index rows, Index cols) {
    resize(rows, cols);
    Base::setZero();
    return *this;
  }
  Growable& setConstant(Index n, double value) {
    resize(n);
    Base::setConstant(value);
    return *this;
  }
  Growable& setOnes(Index n) { return setConstant(n, 1.0); }
  // Exchanges storage and sizes (no copy, no allocation).
  void swap(Growable& o) noexcept {
    const Index r = this->rows(), c = this->cols(), orr = o.rows(), oc = o.cols();
    store_.swap(o.store_);
    rebind(orr, oc);
    o.rebind(r, c);
  }
  friend void swap(Growable& a, Growable& b) noexcept { a.swap(b); }

 private:
  // Rebinds the Map to the storage, as Eigen::RefBase::construct does (placement new on the base).
  void rebind(Index rows, Index cols) {
    ::new (static_cast<Base*>(this)) Base(store_.data(), rows, cols);
  }
  template <class E>
  void assign(const Eigen::DenseBase<E>& e) {
    // A vector takes any vector expression, row or column, as VecX does.
    const Index r = kVector ? e.size() : e.rows(), c = kVector ? 1 : e.cols();
    if (r * c > store_.size()) {
      // Evaluate into new storage first: e may read this vector's current storage.
      Store grown(r * c);
      Eigen::Map<Plain, Eigen::AlignedMax>(grown.data(), r, c) = e;
      store_.swap(grown);
      rebind(r, c);
      return;
    }
    // Like VecX's, assignment evaluates in place: e must not read this Growable at another shape.
    if (r != this->rows() || c != this->cols()) rebind(r, c);
    Base::operator=(e);
  }

  Store store_;
};

using GrowVec = Growable<VecX>;  // VecX with a capacity
using GrowMat = Growable<MatX>;  // MatX with a capacity (column-major, contiguous)
// Views for function parameters that accept a VecX, a GrowVec or a segment without a copy.
using VecCRef = Eigen::Ref<const VecX>;
using VecRef = Eigen::Ref<VecX>;

}  // namespace moreau
