#include "bench/mujoco_scene.h"

#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <utility>

#include "bench/mujoco_model.h"

namespace swarm::bench {
namespace {

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

std::string Solref(const SoftConstraint& soft) {
  return Number(soft.time_constant) + " " + Number(soft.damping_ratio);
}

std::string Solimp(const SoftConstraint& soft) {
  return Number(soft.impedance_min) + " " + Number(soft.impedance_max) + " " + Number(soft.width) +
         " " + Number(soft.midpoint) + " " + Number(soft.power);
}

// The URDF's root: the one link no joint has as its child.
Result<std::string> RootLink(const std::string& urdf, const std::string& what) {
  static const std::regex link(R"(<link\b[^>]*\bname\s*=\s*["']([^"']*)["'])");
  static const std::regex child(R"(<child\b[^>]*\blink\s*=\s*["']([^"']*)["'])");
  std::set<std::string> children;
  for (auto it = std::sregex_iterator(urdf.begin(), urdf.end(), child);
       it != std::sregex_iterator(); ++it) {
    children.insert((*it)[1]);
  }
  std::vector<std::string> roots;
  for (auto it = std::sregex_iterator(urdf.begin(), urdf.end(), link); it != std::sregex_iterator();
       ++it) {
    if (children.count((*it)[1]) == 0) roots.push_back((*it)[1]);
  }
  if (roots.size() != 1) return InvalidArgument(what + " has no single root link");
  if (roots[0] == "world") return InvalidArgument(what + "'s root link is 'world', fixed");
  return roots[0];
}

// `text` with `insert` placed right after the end of the first `<tag ...>` opening tag.
Result<std::string> InsertAfterOpening(std::string text, const std::string& tag,
                                       const std::string& insert, const std::string& what) {
  const size_t start = text.find("<" + tag);
  const size_t end = start == std::string::npos ? start : text.find('>', start);
  if (end == std::string::npos || text[end - 1] == '/') {
    return InvalidArgument(what + " has no <" + tag + "> element with content");
  }
  text.insert(end + 1, insert);
  return text;
}

// A floating joint from a "world" link to the root, which MuJoCo's URDF reader turns into a free
// joint; without it the root link's body has no joint and is fused into the world, <inertial> and
// all.
Result<std::string> WithFloatingRoot(std::string urdf, const std::string& what) {
  Result<std::string> root = RootLink(urdf, what);
  if (!root.ok()) return root.status();
  const size_t end = urdf.rfind("</robot>");
  if (end == std::string::npos) return InvalidArgument(what + " has no </robot>");
  urdf.insert(end,
              "<link name=\"world\"/><joint name=\"floating_base\" type=\"floating\">"
              "<parent link=\"world\"/><child link=\"" +
                  *root + "\"/></joint>");
  return urdf;
}

// The URDF with a MuJoCo compiler element; a file with its own <mujoco> element is refused (its
// settings would mix with the scene's).
Result<std::string> WithCompiler(const std::string& urdf, const std::string& attributes,
                                 const std::string& what) {
  if (urdf.find("<mujoco") != std::string::npos) {
    return InvalidArgument(what + " has a <mujoco> element of its own");
  }
  return InsertAfterOpening(urdf, "robot", "<mujoco><compiler " + attributes + "/></mujoco>", what);
}

// `element` (an opening or empty-element tag) with attribute `name` set to `value`.
std::string SetAttribute(std::string element, const std::string& name, const std::string& value) {
  const std::regex existing("\\s" + name + R"(\s*=\s*"[^"]*")");
  element = std::regex_replace(element, existing, "");
  const size_t close = element.size() - (element.ends_with("/>") ? 2 : 1);
  element.insert(close, " " + name + "=\"" + value + "\"");
  return element;
}

std::string AttributeOf(const std::string& element, const std::string& name) {
  std::smatch match;
  const std::regex attribute("\\s" + name + R"re(\s*=\s*"([^"]*)")re");
  return std::regex_search(element, match, attribute) ? match[1].str() : std::string();
}

// Every <joint ...> tag of `mjcf` passed through `edit`.
template <class Edit>
std::string EditJoints(const std::string& mjcf, Edit edit) {
  static const std::regex joint(R"(<joint\b[^>]*>)");
  std::string out;
  auto last = mjcf.cbegin();
  for (auto it = std::sregex_iterator(mjcf.begin(), mjcf.end(), joint);
       it != std::sregex_iterator(); ++it) {
    out.append(last, mjcf.cbegin() + it->position());
    out += edit(it->str());
    last = mjcf.cbegin() + it->position() + it->length();
  }
  out.append(last, mjcf.cend());
  return out;
}

// Where each contact link's origin sits in the MuJoCo body that carries it once fixed links are
// fused: from MuJoCo's forward kinematics at qpos0 of the URDF loaded without fusing.
struct ContactPlace {
  std::string body;
  double position[3] = {0.0, 0.0, 0.0};
};
Result<std::vector<ContactPlace>> ContactPlaces(const std::string& urdf,
                                                const MujocoSceneOptions& options,
                                                const std::string& what) {
  if (options.contact_links.empty()) return std::vector<ContactPlace>();
  Result<std::string> unfused = WithCompiler(urdf, "fusestatic=\"false\"", what);
  if (!unfused.ok()) return unfused.status();
  Result<mjModel*> loaded = LoadMujocoXmlText(*unfused, what + " (unfused)");
  if (!loaded.ok()) return loaded.status();
  mjModel* model = *loaded;
  mjData* data = mj_makeData(model);
  mj_kinematics(model, data);
  std::vector<ContactPlace> places;
  Status error;
  for (const std::string& link : options.contact_links) {
    const int body = mj_name2id(model, mjOBJ_BODY, link.c_str());
    int carrier = body;
    while (carrier > 0 && model->body_jntnum[carrier] == 0) carrier = model->body_parentid[carrier];
    if (body < 0 || carrier <= 0) {
      error = InvalidArgument("contact link '" + link + "' of " + what +
                              (body < 0 ? " is no MuJoCo body" : " is fixed to the world"));
      break;
    }
    ContactPlace place;
    place.body = mj_id2name(model, mjOBJ_BODY, carrier);
    const mjtNum* x = data->xpos + 3 * body;
    const mjtNum* o = data->xpos + 3 * carrier;
    const mjtNum offset[3] = {x[0] - o[0], x[1] - o[1], x[2] - o[2]};
    mjtNum local[3];
    mju_rotVecMatT(local, offset, data->xmat + 9 * carrier);
    for (int k = 0; k < 3; ++k) place.position[k] = local[k];
    places.push_back(place);
  }
  mj_deleteData(data);
  mj_deleteModel(model);
  if (!error.ok()) return error;
  return places;
}

// MuJoCo's MJCF of the model it loaded last (mj_saveLastXML writes files only).
Result<std::string> SaveLastXml(const mjModel* model, const std::string& path) {
  char error[1024] = "";
  if (mj_saveLastXML(path.c_str(), model, error, sizeof(error)) == 0) {
    return InvalidArgument("mj_saveLastXML('" + path + "') failed: " + error);
  }
  Result<std::string> text = ReadTextFile(path);
  std::filesystem::remove(path);
  return text;
}

Result<std::string> EditMjcf(std::string mjcf, const std::vector<std::string>& joint_names,
                             const std::vector<ContactPlace>& places,
                             const MujocoSceneOptions& options) {
  const std::string what = "MuJoCo's MJCF of the URDF";
  // The time step, gravity and Euler (semi-implicit, as RobotBatch's kSemiImplicitEuler); the
  // contact cone stays MuJoCo's default (pyramidal).
  static const std::regex option(R"(<option\b[^>]*/>)");
  mjcf = std::regex_replace(mjcf, option, "");
  const std::string option_element = "<option timestep=\"" + Number(options.timestep) +
                                     "\" gravity=\"" + Number(options.gravity[0]) + " " +
                                     Number(options.gravity[1]) + " " + Number(options.gravity[2]) +
                                     "\" integrator=\"Euler\"/>";
  Result<std::string> with_option = InsertAfterOpening(mjcf, "mujoco", option_element, what);
  if (!with_option.ok()) return with_option.status();
  mjcf = std::move(with_option).value();
  // Per joint: armature and damping of its column, the limits' solref and solimp (the range and
  // limited="true" come from the URDF's <limit>, as autolimits reads them).
  mjcf = EditJoints(mjcf, [&](std::string element) {
    if (AttributeOf(element, "type") == "free") return element;
    const auto column =
        std::find(joint_names.begin(), joint_names.end(), AttributeOf(element, "name"));
    if (column != joint_names.end()) {
      const size_t c = static_cast<size_t>(column - joint_names.begin());
      if (c < options.armature.size()) {
        element = SetAttribute(element, "armature", Number(options.armature[c]));
      }
      if (c < options.damping.size()) {
        element = SetAttribute(element, "damping", Number(options.damping[c]));
      }
    }
    element = SetAttribute(element, "solreflimit", Solref(options.limits));
    return SetAttribute(element, "solimplimit", Solimp(options.limits));
  });
  if (options.contact_links.empty()) return mjcf;
  // Only spheres touch the plane (contype & conaffinity): not each other, nothing else.
  const std::string contact_attributes = " condim=\"3\" friction=\"" + Number(options.friction) +
                                         " 0.005 0.0001\" solref=\"" + Solref(options.contact) +
                                         "\" solimp=\"" + Solimp(options.contact) + "\"";
  const std::string plane = "<geom name=\"ground\" type=\"plane\" size=\"0 0 1\" pos=\"0 0 " +
                            Number(options.ground_height) + "\" contype=\"0\" conaffinity=\"1\"" +
                            contact_attributes + "/>";
  Result<std::string> with_plane = InsertAfterOpening(mjcf, "worldbody", plane, what);
  if (!with_plane.ok()) return with_plane.status();
  mjcf = std::move(with_plane).value();
  for (size_t c = 0; c < places.size(); ++c) {
    const ContactPlace& place = places[c];
    const std::string sphere = "<geom name=\"contact_" + options.contact_links[c] +
                               "\" type=\"sphere\" size=\"" + Number(options.contact_radius) +
                               "\" pos=\"" + Number(place.position[0]) + " " +
                               Number(place.position[1]) + " " + Number(place.position[2]) +
                               "\" contype=\"1\" conaffinity=\"0\"" + contact_attributes + "/>";
    Result<std::string> with_sphere =
        InsertAfterOpening(mjcf, "body name=\"" + place.body + "\"", sphere, what);
    if (!with_sphere.ok()) return with_sphere.status();
    mjcf = std::move(with_sphere).value();
  }
  return mjcf;
}

// The columns, the free joint and the contact geoms of the final model.
Status MapScene(const std::vector<std::string>& joint_names, const MujocoSceneOptions& options,
                const std::string& what, MujocoScene& scene) {
  const mjModel* model = scene.model;
  scene.qpos_of_joint.assign(joint_names.size(), -1);
  scene.dof_of_joint.assign(joint_names.size(), -1);
  for (int joint = 0; joint < model->njnt; ++joint) {
    if (model->jnt_type[joint] == mjJNT_FREE) {
      scene.free_qpos = model->jnt_qposadr[joint];
      scene.free_dof = model->jnt_dofadr[joint];
      continue;
    }
    const char* name = mj_id2name(model, mjOBJ_JOINT, joint);
    const std::string joint_name = name != nullptr ? name : "";
    const auto column = std::find(joint_names.begin(), joint_names.end(), joint_name);
    if (column == joint_names.end() ||
        (model->jnt_type[joint] != mjJNT_HINGE && model->jnt_type[joint] != mjJNT_SLIDE)) {
      return InvalidArgument("MuJoCo joint '" + joint_name + "' of " + what +
                             " is no hinge or slide among swarm's joint columns");
    }
    const size_t c = static_cast<size_t>(column - joint_names.begin());
    scene.qpos_of_joint[c] = model->jnt_qposadr[joint];
    scene.dof_of_joint[c] = model->jnt_dofadr[joint];
  }
  for (size_t c = 0; c < joint_names.size(); ++c) {
    if (scene.qpos_of_joint[c] < 0) {
      return InvalidArgument("swarm's joint '" + joint_names[c] + "' has no MuJoCo joint in " +
                             what);
    }
  }
  if (options.floating_base != (scene.free_qpos >= 0)) {
    return InvalidArgument(what + ": MuJoCo's free joint does not match floating_base");
  }
  for (const std::string& link : options.contact_links) {
    scene.contact_geoms.push_back(mj_name2id(model, mjOBJ_GEOM, ("contact_" + link).c_str()));
  }
  if (!options.contact_links.empty()) scene.ground_geom = mj_name2id(model, mjOBJ_GEOM, "ground");
  return {};
}

}  // namespace

MujocoSceneOptions SceneOptionsOf(const RobotBatch& batch, double dt, const std::string& folder,
                                  const std::string& name) {
  const TorqueModeConfig& torque = batch.config().torque;
  const RobotModel& model = batch.model();
  MujocoSceneOptions options;
  options.timestep = dt;
  for (int k = 0; k < 3; ++k) options.gravity[k] = torque.gravity[k];
  options.armature = torque.dynamics.armature;
  options.limits = torque.limits;
  options.floating_base = model.floating_base;
  for (const ContactPoint& contact : batch.contact_points()) {
    options.contact_links.push_back(model.links[contact.link]);
  }
  options.contact_radius = torque.contacts.radius;
  options.ground_height = torque.contacts.ground.height;
  options.friction = torque.contacts.ground.friction;
  options.contact = torque.contacts.ground.soft;
  options.folder = folder;
  options.name = name;
  return options;
}

std::vector<std::string> JointColumnNames(const RobotModel& model) {
  std::vector<std::string> names;
  for (size_t joint : model.dof_joints) names.push_back(model.joints[joint].name);
  return names;
}

Result<MujocoScene> BuildMujocoScene(const std::string& urdf_path,
                                     const std::vector<std::string>& joint_names,
                                     const MujocoSceneOptions& options) {
  const std::string what = "'" + urdf_path + "'";
  Result<std::string> read = ReadTextFile(urdf_path);
  if (!read.ok()) return read.status();
  std::string urdf = WithoutUrdfGeometry(*read);
  if (options.floating_base) {
    Result<std::string> floating = WithFloatingRoot(urdf, what);
    if (!floating.ok()) return floating.status();
    urdf = std::move(floating).value();
  }
  // The unfused load comes first: mj_saveLastXML saves the model of the last mj_loadXML.
  Result<std::vector<ContactPlace>> places = ContactPlaces(urdf, options, what);
  if (!places.ok()) return places.status();
  Result<mjModel*> fused = LoadMujocoXmlText(urdf, what);
  if (!fused.ok()) return fused.status();
  const std::filesystem::path folder = options.folder.empty()
                                           ? std::filesystem::temp_directory_path()
                                           : std::filesystem::path(options.folder);
  std::error_code made;
  std::filesystem::create_directories(folder, made);
  const std::string saved_path =
      (folder / (options.name + ".saved." + std::to_string(getpid()) + ".xml")).string();
  Result<std::string> saved = SaveLastXml(*fused, saved_path);
  mj_deleteModel(*fused);
  if (!saved.ok()) return saved.status();
  Result<std::string> mjcf = EditMjcf(*saved, joint_names, *places, options);
  if (!mjcf.ok()) return mjcf.status();
  MujocoScene scene;
  scene.mjcf = std::move(mjcf).value();
  if (!options.folder.empty()) {
    scene.mjcf_path = (folder / (options.name + ".xml")).string();
    std::ofstream(scene.mjcf_path, std::ios::binary) << scene.mjcf;
  }
  Result<mjModel*> model = LoadMujocoXmlText(scene.mjcf, "the scene of " + what);
  if (!model.ok()) return model.status();
  scene.model = *model;
  if (Status s = MapScene(joint_names, options, what, scene); !s.ok()) {
    mj_deleteModel(scene.model);
    return s;
  }
  return scene;
}

}  // namespace swarm::bench
