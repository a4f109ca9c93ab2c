// MuJoCo's narrow phase on one pair of shapes (bench/mujoco_collision.h).
#include "bench/mujoco_collision.h"

#include <string>

#include "bench/mujoco_model.h"

namespace swarm::bench {
namespace {

std::string GeomXml(const char* name, const ShapeGeometry& shape) {
  static const char* kTypes[] = {"plane",     "hfield",   "sphere", "capsule",
                                 "ellipsoid", "cylinder", "box"};
  std::string size;
  switch (shape.type) {
    case ShapeType::kPlane:
      size = "1 1 1";
      break;
    case ShapeType::kSphere:
      size = std::to_string(shape.size[0]);
      break;
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      size = std::to_string(shape.size[0]) + " " + std::to_string(shape.size[1]);
      break;
    default:
      size = std::to_string(shape.size[0]) + " " + std::to_string(shape.size[1]) + " " +
             std::to_string(shape.size[2]);
  }
  if (shape.type == ShapeType::kHeightfield) {
    return std::string("<geom name=\"") + name + "\" type=\"hfield\" hfield=\"h\"/>";
  }
  return std::string("<geom name=\"") + name + "\" type=\"" + kTypes[static_cast<int>(shape.type)] +
         "\" size=\"" + size + "\"/>";
}

}  // namespace

Result<MujocoShapePair> MujocoShapePair::Make(const ShapeGeometry& a, const ShapeGeometry& b) {
  // A heightfield's grid: MuJoCo's size (radius x, radius y, elevation = swarm's top, base) and
  // its data (heights / elevation) written into the model after loading.
  const bool field = a.type == ShapeType::kHeightfield;
  const float elevation = field && a.top > 0.0f ? a.top : 1.0f;
  std::string xml = "<mujoco>";
  if (field) {
    xml += "<asset><hfield name=\"h\" nrow=\"" + std::to_string(a.rows) + "\" ncol=\"" +
           std::to_string(a.columns) + "\" size=\"" + std::to_string(a.size[0]) + " " +
           std::to_string(a.size[1]) + " " + std::to_string(elevation) + " " +
           std::to_string(a.size[2] > 0 ? a.size[2] : 0.1f) + "\"/></asset>";
  }
  xml += "<worldbody>" + GeomXml("a", a) + GeomXml("b", b) + "</worldbody></mujoco>";
  Result<mjModel*> model = LoadMujocoXmlText(xml, "the shape pair");
  if (!model.ok()) return model.status();
  if (field) {
    for (size_t i = 0; i < size_t{a.rows} * a.columns; ++i) {
      (*model)->hfield_data[i] = a.heights[i] / elevation;
    }
  }
  mjData* data = mj_makeData(*model);
  // MuJoCo's geom types: plane 0, hfield 1, sphere 2, capsule 3, ellipsoid 4, cylinder 5, box 6.
  const int type_a = (*model)->geom_type[0], type_b = (*model)->geom_type[1];
  // Sizes as MuJoCo read them back from the text, with the exact float sizes of swarm's shapes.
  for (int k = 0; k < 3; ++k) {
    if (a.type != ShapeType::kPlane && !field) (*model)->geom_size[k] = a.size[k];
    (*model)->geom_size[3 + k] = b.size[k];
  }
  return MujocoShapePair(*model, data, mjCOLLISIONFUNC[type_a][type_b]);
}

MujocoShapePair::MujocoShapePair(MujocoShapePair&& other) noexcept
    : model_(other.model_), data_(other.data_), collide_(other.collide_) {
  other.model_ = nullptr;
  other.data_ = nullptr;
}

MujocoShapePair::~MujocoShapePair() {
  if (data_ != nullptr) mj_deleteData(data_);
  if (model_ != nullptr) mj_deleteModel(model_);
}

int MujocoShapePair::Collide(const float frame_a[12], const float frame_b[12], double margin,
                             mjContact* contacts) {
  for (int k = 0; k < 3; ++k) {
    data_->geom_xpos[k] = frame_a[k];
    data_->geom_xpos[3 + k] = frame_b[k];
  }
  for (int k = 0; k < 9; ++k) {
    data_->geom_xmat[k] = frame_a[3 + k];
    data_->geom_xmat[9 + k] = frame_b[3 + k];
  }
  return collide_(model_, data_, contacts, 0, 1, margin);
}

}  // namespace swarm::bench
