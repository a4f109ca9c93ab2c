// The demo's orbit camera: it looks at a fixed target from a point on a sphere around it
// (azimuth about +y, elevation above the xz plane, distance), with a glm perspective projection.
// Dragging changes the angles, the wheel scales the distance.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <optional>

namespace swarm {

class OrbitCamera {
 public:
  // Looks at `target` from the given angles (radians) and distance (clamped to the limits).
  OrbitCamera(const glm::vec3& target, float azimuth, float elevation, float distance);

  // A drag of (dx, dy) pixels: right turns the camera left around the target, down raises it.
  // Elevation stays within +-kMaxElevation so the view never flips over the pole.
  void Orbit(float dx_pixels, float dy_pixels);
  // Positive steps (wheel forward) move closer, each by a fixed factor; distance stays in
  // [kMinDistance, kMaxDistance].
  void Zoom(float wheel_steps);

  glm::vec3 Eye() const;
  glm::vec3 target() const { return target_; }
  float distance() const { return distance_; }

  // glm::perspective(fovy, width / height, near, far) * glm::lookAt(eye, target, +y).
  glm::mat4 ViewProjection(float width_pixels, float height_pixels) const;

  // The world point under pixel (x, y) (y down, as SDL reports the mouse) on the plane through
  // the target facing the camera: the ray between glm::unProject at depths 0 and 1, intersected
  // with that plane. Empty if the size is degenerate.
  std::optional<glm::vec3> PointOnFocalPlane(float x_pixels, float y_pixels, float width_pixels,
                                             float height_pixels) const;

  static constexpr float kFieldOfViewDegrees = 50.0f;
  static constexpr float kNear = 0.1f;
  static constexpr float kFar = 500.0f;
  static constexpr float kMaxElevation = 1.5f;  // radians, just under pi / 2
  static constexpr float kMinDistance = 2.0f;
  static constexpr float kMaxDistance = 200.0f;

 private:
  glm::mat4 View() const;
  glm::mat4 Projection(float width_pixels, float height_pixels) const;

  glm::vec3 target_;
  float azimuth_;    // radians about +y; 0 puts the eye on +z, looking along -z
  float elevation_;  // radians above the xz plane
  float distance_;
};

}  // namespace swarm
