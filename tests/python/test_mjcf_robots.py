"""MJCF robots from Python (lib.robot_model(mjcf=...)): the MuJoCo Menagerie's Go2 and Panda of
../shared/mjcf loaded, their counts, actuator and keyframe names against the XML text read here
with xml.etree; a batch created from the file's own torque settings, started at a keyframe and
stepped by its actuators from a numpy ctrl array, settling where its position servos balance
gravity: for the fixed-base Panda, where ctrl's joint values are within 0.05 rad after 3 s (the
servos' stiffness against gravity leaves a small offset), and the Go2's joints, falling freely,
within 0.02 rad of ctrl (nothing but their own inertia loads them); the Go2's feet against the
floor from a batch with the file's collision shapes (distance, point and normal against the foot
spheres placed here with numpy from the link poses and the XML's geom), standing on it and on
hills of a heightfield .npy (the contacts on the surface the grid gives); a URDF's <collision>
primitives (meshes refused or skipped, as asked) touching where its geometry says; errors for bad
arguments.

usage: test_mjcf_robots.py LIBSWARM_C MJCF_DIR [unittest arguments]"""

import os
import sys
import unittest
import xml.etree.ElementTree as ET

import numpy as np

if len(sys.argv) < 3:
    sys.exit(f"usage: {sys.argv[0]} path/to/libswarm_c.so path/to/mjcf [unittest arguments]")
MJCF_DIR = sys.argv.pop(2)

from swarm_test_support import library, main  # noqa: E402
import swarm  # noqa: E402


def xml_names(path, section):
    """The names of the children of a top-level section (<actuator>, <keyframe>), in order."""
    return [element.get("name") for element in ET.parse(path).getroot().find(section)]


class MjcfRobots(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.context = self.lib.context()

    def test_go2_model(self):
        robot_file = os.path.join(MJCF_DIR, "unitree_go2", "go2_mjx.xml")
        model = self.lib.robot_model(mjcf=robot_file)
        self.assertTrue(model.floating_base)
        self.assertEqual(model.dof, 12)
        self.assertEqual(model.q_count, 19)
        self.assertEqual(model.actuators, xml_names(robot_file, "actuator"))
        self.assertEqual(model.keyframes, xml_names(robot_file, "keyframe"))
        home = model.keyframe("home")
        key = next(ET.parse(robot_file).getroot().iter("key"))
        np.testing.assert_allclose(home["q"], [float(v) for v in key.get("qpos").split()],
                                   rtol=1e-6)
        np.testing.assert_allclose(home["ctrl"], [float(v) for v in key.get("ctrl").split()],
                                   rtol=1e-6)
        np.testing.assert_array_equal(home["velocities"], np.zeros(18, np.float32))
        with self.assertRaises(KeyError):
            model.keyframe("sitting")

    def test_go2_servos_hold_ctrl_while_falling(self):
        model = self.lib.robot_model(mjcf=os.path.join(MJCF_DIR, "unitree_go2", "go2_mjx.xml"))
        batch = self.context.robot_batch(model, 8, torque=True)
        home = model.keyframe("home")
        batch.q[:] = home["q"]
        target = home["ctrl"] + np.linspace(-0.2, 0.2, 8, dtype=np.float32)[:, None]
        batch.ctrl[:] = target
        for _ in range(1000):  # 2 s of 2 ms
            batch.torque_step(0.002, controller="actuators")
        # The actuators' columns are in the file's order; q's in the body tree's.
        column = [model.q_names.index(name + "_joint") for name in model.actuators]
        self.assertLess(np.abs(batch.q[:, column] - target).max(), 0.02)

    def test_panda_servos_settle_near_ctrl(self):
        scene = os.path.join(MJCF_DIR, "franka_emika_panda", "mjx_scene.xml")
        model = self.lib.robot_model(mjcf=scene)
        self.assertFalse(model.floating_base)
        self.assertEqual(model.dof, 8)  # the second finger follows the first (an equality)
        batch = self.context.robot_batch(model, 4, torque=True)
        self.assertEqual(batch.ctrl.shape, (4, 8))
        ctrl = np.array([0.0, 0.3, 0.0, -1.57079, 0.0, 2.0, -0.7853, 0.04], np.float32)
        batch.ctrl[:] = ctrl
        for _ in range(600):  # 3 s of 5 ms, the file's time step
            batch.torque_step(0.005, controller="actuators")
        self.assertLess(np.abs(batch.q[:, :7] - ctrl[:7]).max(), 0.05)
        self.assertTrue(np.isfinite(batch.torque).all())

    def test_go2_feet_touch_the_floor(self):
        scene = os.path.join(MJCF_DIR, "unitree_go2", "scene_mjx.xml")
        model = self.lib.robot_model(mjcf=scene)
        batch = self.context.robot_batch(model, 3, collisions=True)
        home = model.keyframe("home")
        batch.q[:] = home["q"]
        batch.q[:, 2] -= np.array([0.0, 0.01, 0.05], np.float32)  # lower the base into the floor
        batch.forward_kinematics()
        batch.detect_contacts()
        slots = batch.contact_slots()
        self.assertEqual(batch.shape_contacts.shape, (3, len(slots), 7))
        root = ET.parse(os.path.join(MJCF_DIR, "unitree_go2", "go2_mjx.xml")).getroot()
        foot = next(d for d in root.iter("default") if d.get("class") == "foot").find("geom")
        offset = np.array([float(v) for v in foot.get("pos").split()])
        radius = float(foot.get("size"))
        for name in ("FL", "FR", "RL", "RR"):
            slot = next(i for i, s in enumerate(slots)
                        if s["shape1"] == "floor" and s["shape2"] == name)
            calf = model.links.index(name + "_calf")
            for r in range(3):
                # The foot sphere's centre: the calf's pose applied to the geom's position.
                px, py, pz, qx, qy, qz, qw = batch.link_poses[r, calf].astype(np.float64)
                u = np.array([qx, qy, qz])
                uv = np.cross(u, offset)
                centre = np.array([px, py, pz]) + offset + 2.0 * (qw * uv + np.cross(u, uv))
                contact = batch.shape_contacts[r, slot]
                self.assertAlmostEqual(contact[0], centre[2] - radius, delta=2e-6)
                np.testing.assert_allclose(contact[4:], [0, 0, 1], atol=1e-6)  # floor to foot
                self.assertAlmostEqual(contact[3], (centre[2] - radius) / 2, delta=2e-6)
        # Lowering the base lowers every foot's distance by as much.
        floor_feet = [i for i, s in enumerate(slots) if s["shape1"] == "floor"
                      and s["shape2"] in ("FL", "FR", "RL", "RR")]
        drop = batch.shape_contacts[0, floor_feet, 0] - batch.shape_contacts[2, floor_feet, 0]
        np.testing.assert_allclose(drop, 0.05, atol=2e-6)
        unused = batch.shape_contacts[:, :, 0] == np.finfo(np.float32).max
        self.assertTrue(np.isfinite(batch.shape_contacts[~unused]).all())

    def test_go2_stands_on_its_floor(self):
        # world_contacts: the Go2's shapes against its scene's floor act in every step. From the
        # home keyframe held by its servos, after 1 s every robot stands: the floor carries its
        # weight (the masses of the file's inertials, read here with xml.etree) within 2%, the
        # base stays within 3 cm of the keyframe's height, and the normals push up.
        scene = os.path.join(MJCF_DIR, "unitree_go2", "scene_mjx.xml")
        model = self.lib.robot_model(mjcf=scene)
        batch = self.context.robot_batch(model, 4, torque=True, collisions=True,
                                         world_contacts=True)
        home = model.keyframe("home")
        batch.q[:] = home["q"]
        batch.ctrl[:] = home["ctrl"]
        for _ in range(500):  # 1 s of the file's 2 ms
            batch.torque_step(0.002, controller="actuators")
        root = ET.parse(os.path.join(MJCF_DIR, "unitree_go2", "go2_mjx.xml")).getroot()
        mass = sum(float(inertial.get("mass")) for inertial in root.iter("inertial"))
        contacts = batch.contact_forces.shape[1]
        self.assertEqual(batch.contact_geometry.shape, (4, contacts, 7))
        touching = batch.contact_forces > 0
        np.testing.assert_allclose(batch.contact_forces.sum(axis=1), mass * 9.81, rtol=0.02)
        np.testing.assert_allclose(batch.contact_geometry[touching][:, 4:], [[0, 0, 1]] * int(
            touching.sum()), atol=1e-6)
        self.assertLess(np.abs(batch.q[:, 2] - home["q"][2]).max(), 0.03)
        with self.assertRaises(swarm.SwarmError) as caught:
            self.context.robot_batch(model, 1, torque=True, world_contacts=True)
        self.assertIn("world_contacts needs desc->collisions", str(caught.exception))

    def test_go2_stands_on_a_heightfield(self):
        # A scene written here: the Go2's model file and hills of 6 cm from a numpy .npy
        # (MuJoCo's hfield: heights normalised to [0, 1] times the elevation, row 0 at -y). From
        # the home keyframe raised by the hills' height, after 1 s the terrain carries the
        # robots' weight within 2%, and every touching contact's point on the terrain (its point
        # less half its distance along its normal) lies on the surface: the height of its
        # triangle there, computed here from the grid, within 20 micrometres; normals point up.
        import tempfile
        folder = tempfile.mkdtemp()
        y, x = np.mgrid[0:41, 0:41] * 0.1
        hills = np.sin(1.3 * x) * np.cos(0.9 * y)
        np.save(os.path.join(folder, "hills.npy"), hills)
        go2 = os.path.join(MJCF_DIR, "unitree_go2", "go2_mjx.xml")
        scene = os.path.join(folder, "scene.xml")
        with open(scene, "w") as f:
            f.write(f'<mujoco><include file="{go2}"/><compiler meshdir="{folder}"/>'
                    '<asset><hfield name="hills" file="hills.npy" size="2 2 0.06 0.1"/></asset>'
                    '<worldbody><geom type="hfield" hfield="hills"/></worldbody></mujoco>')
        model = self.lib.robot_model(mjcf=scene)
        batch = self.context.robot_batch(model, 3, torque=True, collisions=True,
                                         world_contacts=True)
        home = model.keyframe("home")
        batch.q[:] = home["q"]
        batch.q[:, 0] = [-0.6, 0.1, 0.7]  # three places on the hills
        batch.q[:, 2] += 0.06
        batch.ctrl[:] = home["ctrl"]
        for _ in range(500):
            batch.torque_step(0.002, controller="actuators")
        root = ET.parse(go2).getroot()
        mass = sum(float(inertial.get("mass")) for inertial in root.iter("inertial"))
        np.testing.assert_allclose(batch.contact_forces.sum(axis=1), mass * 9.81, rtol=0.02)
        heights = (hills - hills.min()) / (hills.max() - hills.min()) * 0.06

        def surface(px, py):
            u, v = (px + 2) / 0.1, (py + 2) / 0.1
            c, r = min(int(u), 39), min(int(v), 39)
            fu, fv = u - c, v - r
            h00, h01 = heights[r, c], heights[r, c + 1]
            h10, h11 = heights[r + 1, c], heights[r + 1, c + 1]
            if fv >= fu:  # the triangle (r, c), (r + 1, c), (r + 1, c + 1)
                return h00 + fu * (h11 - h10) + fv * (h10 - h00)
            return h00 + fu * (h01 - h00) + fv * (h11 - h01)

        touching = batch.contact_forces > 0
        self.assertGreaterEqual(int(touching.sum()), 3 * 4)
        for robot, contact in zip(*np.nonzero(touching)):
            distance = float(batch.contact_geometry[robot, contact, 0])
            normal = batch.contact_geometry[robot, contact, 4:7].astype(np.float64)
            point = batch.contact_geometry[robot, contact, 1:4] - normal * distance / 2
            self.assertAlmostEqual(point[2], surface(point[0], point[1]), delta=2e-5)
            self.assertGreater(normal[2], 0.9)

    def test_urdf_collision_primitives(self):
        # A box base, an upper link and a lower link with a sphere each on y hinges. The fixed
        # base is part of the world (as MuJoCo welds it), so both spheres may touch it; the two
        # spheres are on a body and its parent, which never touch.
        urdf = """<robot name="folding">
          <link name="base"><collision name="block"><geometry><box size="0.2 0.2 0.2"/></geometry>
            </collision></link>
          <link name="upper"><collision name="elbow"><origin xyz="0 0 0.3"/>
            <geometry><sphere radius="0.05"/></geometry></collision></link>
          <link name="lower"><collision name="hand"><origin xyz="0 0 0.4"/>
            <geometry><sphere radius="0.05"/></geometry></collision>
            <collision><geometry><mesh filename="hand.stl"/></geometry></collision></link>
          <joint name="shoulder" type="continuous"><parent link="base"/><child link="upper"/>
            <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/></joint>
          <joint name="elbow" type="continuous"><parent link="upper"/><child link="lower"/>
            <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/></joint></robot>"""
        with self.assertRaises(swarm.SwarmError) as caught:
            self.lib.robot_model(text=urdf, collisions="primitives")
        self.assertIn("mesh <collision>", str(caught.exception))
        model = self.lib.robot_model(text=urdf, collisions="skip-meshes")
        batch = self.context.robot_batch(model, 2, collisions=True)
        slots = batch.contact_slots()
        self.assertEqual([(s["shape1"], s["shape2"]) for s in slots],
                         [("elbow", "block"), ("hand", "block")])
        self.assertEqual((slots[1]["link1"], slots[1]["link2"]), ("lower", "base"))
        batch.q[:] = np.array([[0.0, 0.0], [0.0, np.pi]], np.float32)  # straight, folded down
        batch.forward_kinematics()
        batch.detect_contacts()
        # Straight: the hand's centre 1.0 m up; folded: 0.2 m, 0.05 m above the block's top.
        np.testing.assert_allclose(batch.shape_contacts[:, 1, 0], [1.0 - 0.05 - 0.1, 0.05],
                                   atol=1e-5)
        np.testing.assert_allclose(batch.shape_contacts[1, 1, 4:], [0, 0, -1], atol=1e-5)
        np.testing.assert_allclose(batch.shape_contacts[:, 0, 0], 0.4 - 0.05 - 0.1, atol=1e-5)
        with self.assertRaises(ValueError):
            self.lib.robot_model(text=urdf, collisions="all")
        ignored = self.lib.robot_model(text=urdf)
        self.assertEqual(self.context.robot_batch(ignored, 1, collisions=True).contact_slots(), [])

    def test_errors(self):
        with self.assertRaises(ValueError):
            self.lib.robot_model(mjcf="x.xml", floating_base=True)
        with self.assertRaises(ValueError):
            self.lib.robot_model(path="x.urdf", mjcf="x.xml")
        with self.assertRaises(swarm.SwarmError) as caught:
            self.lib.robot_model(mjcf=os.path.join(MJCF_DIR, "no_such.xml"))
        self.assertIn("no_such.xml", str(caught.exception))
        urdf = self.lib.robot_model(text='<robot name="r"><link name="a"/></robot>')
        self.assertEqual(urdf.actuators, [])
        self.assertEqual(urdf.keyframes, [])


if __name__ == "__main__":
    main()
