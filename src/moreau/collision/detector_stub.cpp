// Placeholder until the collision room lands: no geometry ever touches.
#include "moreau/collision/contact.hpp"

namespace moreau {

struct CollisionWorkspace {
  std::vector<Contact> contacts;
};

CollisionDetector::CollisionDetector(const Model& model) : model_(&model), ws_(new CollisionWorkspace) {}
CollisionDetector::~CollisionDetector() { delete ws_; }
CollisionDetector::CollisionDetector(CollisionDetector&& o) noexcept : model_(o.model_), ws_(o.ws_) { o.ws_ = nullptr; }
CollisionDetector& CollisionDetector::operator=(CollisionDetector&& o) noexcept {
  std::swap(model_, o.model_);
  std::swap(ws_, o.ws_);
  return *this;
}

const std::vector<Contact>& CollisionDetector::detect(const State&, const CollisionSettings&) {
  ws_->contacts.clear();
  return ws_->contacts;
}

}  // namespace moreau
