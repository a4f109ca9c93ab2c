#include "demos/particles/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

namespace swarm {
namespace {

constexpr float kRadiansPerPixel = 0.005f;
// One wheel notch changes the distance by 10%: zooming feels the same near and far.
constexpr float kZoomPerStep = 0.9f;

}  // namespace

OrbitCamera::OrbitCamera(const glm::vec3& target, float azimuth, float elevation, float distance)
    : target_(target),
      azimuth_(azimuth),
      elevation_(std::clamp(elevation, -kMaxElevation, kMaxElevation)),
      distance_(std::clamp(distance, kMinDistance, kMaxDistance)) {}

void OrbitCamera::Orbit(float dx_pixels, float dy_pixels) {
  azimuth_ = std::remainder(azimuth_ - dx_pixels * kRadiansPerPixel, 2.0f * glm::pi<float>());
  elevation_ = std::clamp(elevation_ + dy_pixels * kRadiansPerPixel, -kMaxElevation, kMaxElevation);
}

void OrbitCamera::Zoom(float wheel_steps) {
  distance_ =
      std::clamp(distance_ * std::pow(kZoomPerStep, wheel_steps), kMinDistance, kMaxDistance);
}

glm::vec3 OrbitCamera::Eye() const {
  // Spherical coordinates about the target with +y up; azimuth 0 puts the eye on +z.
  const float horizontal = distance_ * std::cos(elevation_);
  return target_ + glm::vec3(horizontal * std::sin(azimuth_), distance_ * std::sin(elevation_),
                             horizontal * std::cos(azimuth_));
}

glm::mat4 OrbitCamera::View() const {
  return glm::lookAt(Eye(), target_, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 OrbitCamera::Projection(float width_pixels, float height_pixels) const {
  const float aspect = width_pixels / std::max(height_pixels, 1.0f);
  return glm::perspective(glm::radians(kFieldOfViewDegrees), aspect, kNear, kFar);
}

glm::mat4 OrbitCamera::ViewProjection(float width_pixels, float height_pixels) const {
  return Projection(width_pixels, height_pixels) * View();
}

std::optional<glm::vec3> OrbitCamera::PointOnFocalPlane(float x_pixels, float y_pixels,
                                                        float width_pixels,
                                                        float height_pixels) const {
  if (!(width_pixels >= 1.0f && height_pixels >= 1.0f)) return std::nullopt;
  const glm::mat4 view = View();
  const glm::mat4 projection = Projection(width_pixels, height_pixels);
  const glm::vec4 viewport(0.0f, 0.0f, width_pixels, height_pixels);
  // glm's window y grows upwards; the pixel centre is at +0.5.
  const glm::vec3 window(x_pixels + 0.5f, height_pixels - (y_pixels + 0.5f), 0.0f);
  const glm::vec3 near_point = glm::unProject(window, view, projection, viewport);
  const glm::vec3 far_point =
      glm::unProject(glm::vec3(window.x, window.y, 1.0f), view, projection, viewport);
  const glm::vec3 direction = far_point - near_point;
  const glm::vec3 normal = glm::normalize(target_ - Eye());
  const float along = glm::dot(direction, normal);
  if (!(std::abs(along) > 0.0f)) return std::nullopt;
  const float t = glm::dot(target_ - near_point, normal) / along;
  return near_point + direction * t;
}

}  // namespace swarm
