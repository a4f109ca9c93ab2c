#include "engine/robots/mjcf_model.h"

#include <cmath>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/robots/mjcf_actuator.h"
#include "engine/robots/mjcf_geom_inertia.h"
#include "engine/robots/mjcf_inertial.h"
#include "engine/robots/mjcf_schema.h"
#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm {
namespace {

// Names of one kind of object, unique when given (MuJoCo: "repeated name").
class NameTable {
 public:
  explicit NameTable(const char* kind) : kind_(kind) {}
  Status Add(const MjcfDocument& document, uint32_t element, const std::string& name,
             uint32_t index) {
    if (name.empty()) return Status();
    if (!names_.emplace(name, index).second) {
      return document.Error(element, std::string(kind_) + " name '" + name + "' is used twice");
    }
    return Status();
  }
  Result<uint32_t> Find(const MjcfDocument& document, uint32_t element,
                        const char* attribute) const {
    const std::string* name = document.elements[element].Find(attribute);
    if (name == nullptr) return document.Error(element, std::string("needs ") + attribute);
    const auto found = names_.find(*name);
    if (found == names_.end()) {
      return document.Error(element, std::string(attribute) + " names " + kind_ + " '" + *name +
                                         "', which the model does not have");
    }
    return found->second;
  }
  const std::unordered_map<std::string, uint32_t>& map() const { return names_; }

 private:
  const char* kind_;
  std::unordered_map<std::string, uint32_t> names_;
};

class ModelReader {
 public:
  explicit ModelReader(const MjcfDocument& document) : document_(document) {}

  Result<MjcfModel> Read() {
    if (Status s = CheckMjcfSchema(document_); !s.ok()) return s;
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document_);
    if (!compiler.ok()) return compiler.status();
    model_.compiler = *compiler;
    const std::string* name = document_.elements[0].Find("model");
    model_.name = name != nullptr ? *name : "MuJoCo Model";
    if (Status s = ReadOption(); !s.ok()) return s;
    for (uint32_t section : document_.Children(0, "asset")) {
      for (uint32_t e : document_.Children(section, "hfield")) {
        if (Status s = ReadHeightfield(e); !s.ok()) return s;
      }
    }
    MjcfBody world;
    world.name = "world";
    model_.bodies.push_back(std::move(world));
    if (Status s = bodies_.Add(document_, 0, "world", 0); !s.ok()) return s;
    // The world's own geoms and sites of every <worldbody> first, then the bodies (MuJoCo numbers
    // geoms and sites body by body, the world's first).
    const std::vector<uint32_t> worldbodies = document_.Children(0, "worldbody");
    for (uint32_t worldbody : worldbodies) {
      model_.bodies[0].element = worldbody;
      if (Status s = ReadBodyContents(worldbody, 0, false); !s.ok()) return s;
    }
    for (uint32_t worldbody : worldbodies) {
      for (uint32_t child : document_.Children(worldbody, "body")) {
        if (Status s = ReadBody(child, 0); !s.ok()) return s;
      }
    }
    for (uint32_t section : document_.Children(0, "contact")) {
      if (Status s = ReadContact(section); !s.ok()) return s;
    }
    for (uint32_t section : document_.Children(0, "equality")) {
      for (uint32_t e : document_.elements[section].children) {
        if (Status s = ReadEquality(e); !s.ok()) return s;
      }
    }
    for (uint32_t section : document_.Children(0, "actuator")) {
      for (uint32_t e : document_.elements[section].children) {
        Result<MjcfActuator> actuator =
            ReadMjcfActuator(document_, e, model_.compiler, model_.joints, joints_.map());
        if (!actuator.ok()) return actuator.status();
        if (Status s = actuators_.Add(document_, e, actuator->name,
                                      static_cast<uint32_t>(model_.actuators.size()));
            !s.ok()) {
          return s;
        }
        model_.actuators.push_back(std::move(*actuator));
      }
    }
    for (uint32_t section : document_.Children(0, "keyframe")) {
      for (uint32_t e : document_.Children(section, "key")) {
        if (Status s = ReadKeyframe(e); !s.ok()) return s;
      }
    }
    return std::move(model_);
  }

 private:
  Status ReadOption() {
    for (uint32_t e : document_.Children(0, "option")) {
      const auto numbers = [&](const char* attribute, std::vector<double>& values) {
        return OverwriteMjcfNumbers(document_, e, attribute, values);
      };
      std::vector<double> timestep{model_.option.timestep};
      std::vector<double> gravity(model_.option.gravity.begin(), model_.option.gravity.end());
      if (Status s = numbers("timestep", timestep); !s.ok()) return s;
      if (Status s = numbers("gravity", gravity); !s.ok()) return s;
      if (!(timestep[0] > 0.0)) return document_.Error(e, "timestep must be > 0");
      model_.option.timestep = timestep[0];
      model_.option.gravity = {gravity[0], gravity[1], gravity[2]};
      for (const char* medium : {"wind", "density", "viscosity"}) {
        std::vector<double> values(3, 0.0);
        if (Status s = numbers(medium, values); !s.ok()) return s;
        if (values != std::vector<double>(3, 0.0)) {
          return document_.Error(e, std::string(medium) +
                                        " other than 0 is not supported: swarm models no medium "
                                        "(fluid forces)");
        }
      }
      if (const std::string* integrator = document_.elements[e].Find("integrator")) {
        const std::pair<const char*, MjcfIntegrator> kinds[] = {
            {"Euler", MjcfIntegrator::kEuler},
            {"RK4", MjcfIntegrator::kRungeKutta4},
            {"implicit", MjcfIntegrator::kImplicit},
            {"implicitfast", MjcfIntegrator::kImplicitFast}};
        bool known = false;
        for (const auto& [keyword, kind] : kinds) {
          if (*integrator == keyword) model_.option.integrator = kind, known = true;
        }
        if (!known) {
          return document_.Error(e, "integrator \"" + *integrator +
                                        "\": expected Euler, RK4, implicit or implicitfast");
        }
      }
      if (const std::string* cone = document_.elements[e].Find("cone")) {
        if (*cone != "pyramidal" && *cone != "elliptic") {
          return document_.Error(e, "cone \"" + *cone + "\": expected pyramidal or elliptic");
        }
        model_.option.pyramidal_cone = *cone == "pyramidal";
      }
      std::vector<double> impratio{model_.option.impratio};
      if (Status s = numbers("impratio", impratio); !s.ok()) return s;
      if (!(impratio[0] > 0.0) || !std::isfinite(impratio[0])) {
        return document_.Error(e, "impratio must be finite and > 0");
      }
      model_.option.impratio = impratio[0];
      for (uint32_t flag : document_.Children(e, "flag")) {
        if (Status s = ReadFlags(flag); !s.ok()) return s;
      }
    }
    return Status();
  }

  Status ReadFlags(uint32_t e) {
    // Flags whose default is "enable" except those listed; only the honoured ones may change.
    for (const auto& [name, value] : document_.elements[e].attributes) {
      if (value != "enable" && value != "disable") {
        return document_.Error(e, name + " \"" + value + "\": expected enable or disable");
      }
      const bool off_by_default = name == "override" || name == "energy" || name == "fwdinv" ||
                                  name == "invdiscrete" || name == "multiccd" || name == "island" ||
                                  name == "nativeccd";
      const bool changed = (value == "disable") != off_by_default;
      if (!changed) continue;
      if (name == "gravity") {
        model_.option.gravity = {0, 0, 0};
      } else if (name == "contact") {
        model_.option.contact_enabled = false;
      } else if (name == "limit") {
        model_.option.limits_enabled = false;
      } else if (name == "filterparent") {
        model_.option.filter_parent = false;
      } else if (name == "eulerdamp" || name == "warmstart" || name == "energy" ||
                 name == "fwdinv" || name == "invdiscrete" || name == "island" ||
                 name == "sensor" || name == "sensornoise" || name == "midphase" ||
                 name == "refsafe" || name == "multiccd" || name == "nativeccd") {
        // How MuJoCo's own solver and integrator work, or what it reports: swarm's constraints
        // and integration are its own (docs/design.md).
      } else {
        return document_.Error(e, "flag " + name + "=\"" + value +
                                      "\" is not supported: swarm honours gravity, contact, "
                                      "limit and filterparent");
      }
    }
    return Status();
  }

  // The joints, inertial, geoms and sites of body `index` (the world's when 0), then (with
  // `children`) its child bodies, in document order (MuJoCo numbers bodies depth first).
  Status ReadBodyContents(uint32_t element, uint32_t index, bool children = true) {
    bool has_inertial = false;
    for (uint32_t child : document_.elements[element].children) {
      const std::string& tag = document_.elements[child].tag;
      if (tag == "inertial") {
        if (has_inertial) return document_.Error(child, "is the body's second <inertial>");
        if (index == 0) return document_.Error(child, "cannot be in the world body");
        has_inertial = true;
        Result<LinkInertial> inertial = ReadMjcfInertial(document_, child, model_.compiler);
        if (!inertial.ok()) return inertial.status();
        model_.bodies[index].inertial = *inertial;
      } else if (tag == "joint" || tag == "freejoint") {
        if (Status s = ReadJoint(child, index); !s.ok()) return s;
      } else if (tag == "geom") {
        Result<MjcfGeom> geom = ReadMjcfGeom(document_, child, model_.compiler);
        if (!geom.ok()) return geom.status();
        const auto g = static_cast<uint32_t>(model_.geoms.size());
        if (Status s = geoms_.Add(document_, child, geom->name, g); !s.ok()) return s;
        int32_t heightfield = -1;
        if (geom->type == MjcfGeomType::kHfield) {
          Result<uint32_t> found = heightfields_.Find(document_, child, "hfield");
          if (!found.ok()) return found.status();
          heightfield = static_cast<int32_t>(*found);
        }
        model_.geom_heightfield.push_back(heightfield);
        model_.geoms.push_back(std::move(*geom));
        model_.geom_body.push_back(index);
        model_.bodies[index].geoms.push_back(g);
        geom_elements_.push_back(child);
      } else if (tag == "site") {
        Result<std::string> name = MjcfText(document_, child, "name", "");
        if (!name.ok()) return name.status();
        Result<MjcfPose> pose = ReadMjcfPose(document_, child, model_.compiler);
        if (!pose.ok()) return pose.status();
        const auto s = static_cast<uint32_t>(model_.sites.size());
        if (Status status = sites_.Add(document_, child, *name, s); !status.ok()) return status;
        model_.sites.push_back(MjcfSite{*name, index, *pose});
        model_.bodies[index].sites.push_back(s);
      }
    }
    if (index != 0) {
      if (Status s = BodyInertia(index, has_inertial); !s.ok()) return s;
    }
    if (!children) return Status();
    for (uint32_t child : document_.Children(element, "body")) {
      if (Status s = ReadBody(child, index); !s.ok()) return s;
    }
    return Status();
  }

  Status ReadBody(uint32_t element, uint32_t parent) {
    const MjcfElement& body_element = document_.elements[element];
    MjcfBody body;
    body.parent = static_cast<int32_t>(parent);
    body.element = element;
    if (const std::string* name = body_element.Find("name")) body.name = *name;
    Result<MjcfPose> pose = ReadMjcfPose(document_, element, model_.compiler);
    if (!pose.ok()) return pose.status();
    body.pose = *pose;
    if (const std::string* mocap = body_element.Find("mocap")) {
      if (*mocap != "true" && *mocap != "false") {
        return document_.Error(element, "mocap \"" + *mocap + "\": expected true or false");
      }
      body.mocap = *mocap == "true";
      if (body.mocap && parent != 0) {
        return document_.Error(element, "is a mocap body but not a child of the world body");
      }
    }
    std::vector<double> gravity_compensation{0};
    if (Status s = OverwriteMjcfNumbers(document_, element, "gravcomp", gravity_compensation);
        !s.ok()) {
      return s;
    }
    if (gravity_compensation[0] != 0.0) {
      return document_.Error(element,
                             "gravcomp is not supported: swarm applies gravity to every body");
    }
    const auto index = static_cast<uint32_t>(model_.bodies.size());
    if (Status s = bodies_.Add(document_, element, body.name, index); !s.ok()) return s;
    model_.bodies.push_back(std::move(body));
    if (Status s = ReadBodyContents(element, index); !s.ok()) return s;
    if (model_.bodies[index].mocap && !model_.bodies[index].joints.empty()) {
      return document_.Error(element, "is a mocap body with joints");
    }
    return Status();
  }

  Status ReadJoint(uint32_t element, uint32_t body) {
    if (body == 0) return document_.Error(element, "cannot be in the world body");
    Result<MjcfJoint> joint = ReadMjcfJoint(document_, element, model_.compiler);
    if (!joint.ok()) return joint.status();
    std::vector<uint32_t>& body_joints = model_.bodies[body].joints;
    const bool free = joint->type == MjcfJointType::kFree;
    if (free && model_.bodies[body].parent != 0) {
      return document_.Error(element,
                             "is a free joint in a body that is not a child of the world body");
    }
    if (free ? !body_joints.empty()
             : !body_joints.empty() && model_.joints[body_joints[0]].type == MjcfJointType::kFree) {
      return document_.Error(element, "shares its body with a free joint");
    }
    if (joint->type == MjcfJointType::kBall) {
      return document_.Error(element,
                             "is a ball joint, which swarm does not support yet (hinge, slide and "
                             "free joints are read)");
    }
    const auto index = static_cast<uint32_t>(model_.joints.size());
    if (Status s = joints_.Add(document_, element, joint->name, index); !s.ok()) return s;
    model_.qpos_count += free ? 7 : 1;
    model_.qvel_count += free ? 6 : 1;
    model_.joints.push_back(std::move(*joint));
    model_.joint_body.push_back(body);
    body_joints.push_back(index);
    return Status();
  }

  Status BodyInertia(uint32_t index, bool has_inertial) {
    MjcfBody& body = model_.bodies[index];
    const MjcfInertiaFromGeoms rule = model_.compiler.inertia_from_geoms;
    if (rule == MjcfInertiaFromGeoms::kNever ||
        (rule == MjcfInertiaFromGeoms::kWithoutInertial && has_inertial)) {
      return Status();
    }
    std::vector<uint32_t> elements;
    std::vector<const MjcfGeom*> geoms;
    for (uint32_t g : body.geoms) {
      const MjcfGeom& geom = model_.geoms[g];
      if (geom.group < model_.compiler.inertia_groups[0] ||
          geom.group > model_.compiler.inertia_groups[1]) {
        continue;
      }
      elements.push_back(geom_elements_[g]);
      geoms.push_back(&geom);
    }
    if (geoms.empty()) return Status();
    Result<LinkInertial> inertial = MjcfGeomsInertial(document_, elements, geoms);
    if (!inertial.ok()) return inertial.status();
    body.inertial = *inertial;
    body.inertia_from_geoms = true;
    return Status();
  }

  Status ReadContact(uint32_t section) {
    for (uint32_t e : document_.elements[section].children) {
      const std::string& tag = document_.elements[e].tag;
      if (tag == "exclude") {
        Result<uint32_t> body1 = bodies_.Find(document_, e, "body1");
        if (!body1.ok()) return body1.status();
        Result<uint32_t> body2 = bodies_.Find(document_, e, "body2");
        if (!body2.ok()) return body2.status();
        model_.excludes.push_back(MjcfExclude{*body1, *body2});
        continue;
      }
      MjcfPair pair;
      pair.element = e;
      Result<uint32_t> geom1 = geoms_.Find(document_, e, "geom1");
      if (!geom1.ok()) return geom1.status();
      Result<uint32_t> geom2 = geoms_.Find(document_, e, "geom2");
      if (!geom2.ok()) return geom2.status();
      pair.geom1 = *geom1, pair.geom2 = *geom2;
      Result<std::string> name = MjcfText(document_, e, "name", "");
      Result<std::vector<double>> condim = MjcfNumbers(document_, e, "condim", {3});
      Result<std::vector<double>> friction =
          MjcfNumbers(document_, e, "friction", {1, 1, 0.005, 0.0001, 0.0001});
      Result<std::vector<double>> solref = MjcfNumbers(document_, e, "solref", {0.02, 1});
      Result<std::vector<double>> solimp =
          MjcfNumbers(document_, e, "solimp", {0.9, 0.95, 0.001, 0.5, 2});
      Result<std::vector<double>> margin = MjcfNumbers(document_, e, "margin", {0});
      Result<std::vector<double>> gap = MjcfNumbers(document_, e, "gap", {0});
      if (!name.ok()) return name.status();
      for (const auto* r : {&condim, &friction, &solref, &solimp, &margin, &gap}) {
        if (!r->ok()) return r->status();
      }
      pair.name = *name;
      // An attribute the pair and its classes leave out reads as this text.
      constexpr const char* kUnset = "\x01";
      for (auto [attribute, given] :
           {std::pair{"condim", &pair.has_condim}, std::pair{"friction", &pair.has_friction},
            std::pair{"solref", &pair.has_solref}, std::pair{"solimp", &pair.has_solimp},
            std::pair{"margin", &pair.has_margin}, std::pair{"gap", &pair.has_gap}}) {
        Result<std::string> text = MjcfText(document_, e, attribute, kUnset);
        if (!text.ok()) return text.status();
        *given = *text != kUnset;
      }
      const double c = (*condim)[0];
      if (c != 1 && c != 3 && c != 4 && c != 6) {
        return document_.Error(e, "condim must be 1, 3, 4 or 6");
      }
      pair.condim = static_cast<int>(c);
      for (int k = 0; k < 5; ++k) pair.friction[k] = (*friction)[k], pair.solimp[k] = (*solimp)[k];
      for (double f : pair.friction) {
        if (f < 0.0) return document_.Error(e, "friction must be >= 0");
      }
      pair.solref = {(*solref)[0], (*solref)[1]};
      pair.margin = (*margin)[0], pair.gap = (*gap)[0];
      if (pair.margin < 0.0 || pair.gap < 0.0) {
        return document_.Error(e, "margin and gap must be >= 0");
      }
      model_.pairs.push_back(std::move(pair));
    }
    return Status();
  }

  Status ReadEquality(uint32_t e) {
    MjcfJointEquality equality;
    equality.element = e;
    Result<uint32_t> joint1 = joints_.Find(document_, e, "joint1");
    if (!joint1.ok()) return joint1.status();
    equality.joint1 = *joint1;
    if (document_.elements[e].Find("joint2") != nullptr) {
      Result<uint32_t> joint2 = joints_.Find(document_, e, "joint2");
      if (!joint2.ok()) return joint2.status();
      equality.joint2 = static_cast<int32_t>(*joint2);
    }
    Result<std::string> name = MjcfText(document_, e, "name", "");
    Result<std::string> active = MjcfText(document_, e, "active", "true");
    Result<std::vector<double>> polycoef = MjcfNumbers(document_, e, "polycoef", {0, 1, 0, 0, 0});
    Result<std::vector<double>> solref = MjcfNumbers(document_, e, "solref", {0.02, 1});
    Result<std::vector<double>> solimp =
        MjcfNumbers(document_, e, "solimp", {0.9, 0.95, 0.001, 0.5, 2});
    if (!name.ok()) return name.status();
    if (!active.ok()) return active.status();
    for (const auto* r : {&polycoef, &solref, &solimp}) {
      if (!r->ok()) return r->status();
    }
    if (*active != "true" && *active != "false") {
      return document_.Error(e, "active \"" + *active + "\": expected true or false");
    }
    equality.name = *name;
    equality.active = *active == "true";
    for (int k = 0; k < 5; ++k) {
      equality.polycoef[k] = (*polycoef)[k], equality.solimp[k] = (*solimp)[k];
    }
    equality.solref = {(*solref)[0], (*solref)[1]};
    const bool free1 = model_.joints[equality.joint1].type == MjcfJointType::kFree;
    const bool free2 =
        equality.joint2 >= 0 &&
        model_.joints[static_cast<uint32_t>(equality.joint2)].type == MjcfJointType::kFree;
    if (free1 || free2) {
      return document_.Error(e, "couples a free joint: joint equalities are for hinge and slide");
    }
    model_.equalities.push_back(std::move(equality));
    return Status();
  }

  Status ReadKeyframe(uint32_t e) {
    MjcfKeyframe key;
    key.element = e;
    Result<std::string> name = MjcfText(document_, e, "name", "");
    if (!name.ok()) return name.status();
    key.name = *name;
    std::vector<double> time{0};
    if (Status s = OverwriteMjcfNumbers(document_, e, "time", time); !s.ok()) return s;
    key.time = time[0];
    struct Field {
      const char* name;
      size_t size;
      std::vector<double>* values;
    };
    const Field fields[] = {{"qpos", model_.qpos_count, &key.qpos},
                            {"qvel", model_.qvel_count, &key.qvel},
                            {"ctrl", model_.actuators.size(), &key.ctrl}};
    for (const Field& field : fields) {
      if (document_.elements[e].Find(field.name) == nullptr) continue;
      // Read with room for one more, so that a longer list is named with its length.
      std::vector<double> values(field.size + 1, std::nan(""));
      if (Status s = OverwriteMjcfNumbers(document_, e, field.name, values); !s.ok()) return s;
      size_t count = 0;
      while (count < values.size() && !std::isnan(values[count])) ++count;
      if (count != field.size) {
        return document_.Error(e,
                               std::string(field.name) + " has " +
                                   (count > field.size ? "more than " + std::to_string(field.size)
                                                       : std::to_string(count)) +
                                   " values, the model " + std::to_string(field.size));
      }
      values.resize(field.size);
      *field.values = std::move(values);
    }
    for (const char* unsupported : {"act", "mpos", "mquat"}) {
      if (document_.elements[e].Find(unsupported) != nullptr) {
        // act: swarm's actuators have no activation state; mpos and mquat move mocap bodies,
        // which swarm keeps where the model puts them.
        return document_.Error(e, std::string(unsupported) + " is not supported");
      }
    }
    model_.keyframes.push_back(std::move(key));
    return Status();
  }

  // An <hfield> asset, checked as MuJoCo's compiler checks it (its data is read where the robot is
  // made: mjcf_robot.cc).
  Status ReadHeightfield(uint32_t e) {
    MjcfHeightfield field;
    field.element = e;
    Result<std::string> name = MjcfText(document_, e, "name", "");
    Result<std::string> file = MjcfText(document_, e, "file", "");
    Result<std::vector<double>> size = MjcfNumbers(document_, e, "size", {0, 0, 0, 0});
    Result<std::vector<double>> grid = MjcfNumbers(document_, e, "nrow", {0});
    Result<std::vector<double>> columns = MjcfNumbers(document_, e, "ncol", {0});
    if (!name.ok()) return name.status();
    if (!file.ok()) return file.status();
    if (!size.ok()) return size.status();
    if (!grid.ok()) return grid.status();
    if (!columns.ok()) return columns.status();
    for (int k = 0; k < 4; ++k) {
      if (!((*size)[k] > 0)) return document_.Error(e, "needs a size of four values > 0");
      field.size[k] = (*size)[k];
    }
    const double rows = (*grid)[0], cols = (*columns)[0];
    const bool given = rows != 0 || cols != 0;
    if (!file->empty() && given) {
      return document_.Error(e, "gives a file and nrow or ncol: the file sets the grid");
    }
    const auto valid = [](double n) { return n == std::floor(n) && n >= 2 && n <= 1e9; };
    if (file->empty() && !(valid(rows) && valid(cols) && rows * cols <= kMaxHeightfieldPoints)) {
      return document_.Error(e, "needs nrow and ncol, integers from 2 with at most " +
                                    std::to_string(kMaxHeightfieldPoints) + " points (or a file)");
    }
    field.rows = static_cast<uint32_t>(rows);
    field.columns = static_cast<uint32_t>(cols);
    if (const std::string* elevation = document_.elements[e].Find("elevation")) {
      if (!file->empty()) return document_.Error(e, "gives a file and elevation");
      const size_t count = size_t{field.rows} * field.columns;
      std::istringstream words(*elevation);
      size_t given_values = 0;
      for (std::string word; words >> word;) ++given_values;
      if (given_values != count) {
        return document_.Error(e, "elevation has " + std::to_string(given_values) +
                                      " values for nrow x ncol = " + std::to_string(count));
      }
      Result<std::vector<double>> values =
          MjcfNumbers(document_, e, "elevation", std::vector<double>(count, 0.0));
      if (!values.ok()) return values.status();
      field.elevation = std::move(*values);
    }
    if (!file->empty()) {
      const std::string& main = document_.files[0];
      const size_t slash = main.find_last_of('/');
      std::string folder = slash == std::string::npos ? "" : main.substr(0, slash + 1);
      const std::string& mesh_folder = model_.compiler.mesh_folder;
      if (!mesh_folder.empty()) {
        folder = mesh_folder[0] == '/' ? mesh_folder : folder + mesh_folder;
        if (folder.back() != '/') folder += '/';
      }
      field.file = (*file)[0] == '/' ? *file : folder + *file;
    }
    field.name = *name;
    const auto index = static_cast<uint32_t>(model_.heightfields.size());
    if (Status s = heightfields_.Add(document_, e, field.name, index); !s.ok()) return s;
    model_.heightfields.push_back(std::move(field));
    return Status();
  }

  const MjcfDocument& document_;
  MjcfModel model_;
  std::vector<uint32_t> geom_elements_;
  NameTable bodies_{"body"}, joints_{"joint"}, geoms_{"geom"}, sites_{"site"},
      actuators_{"actuator"}, heightfields_{"hfield"};
};

}  // namespace

Result<MjcfModel> ReadMjcfModel(const MjcfDocument& document) {
  return ModelReader(document).Read();
}

}  // namespace swarm
