"""swarm-robots info: --json parses with Python's json and lists the URDF's independent joints
(movable, not mimic) in q order and every link in pose order, which for a chain is the chain from
the root (read here from the URDF text with xml.etree); --floating-base adds the 7 base values
first; the table names every joint and link.

usage: robots_info_test.py <swarm-robots> <assets/robots dir>"""

import os
import sys

from robots_support import Urdf, info_json, run

binary, assets = sys.argv[1:3]

for file_name in ["ur5.urdf", "panda_arm.urdf", "quadruped.urdf"]:
    path = os.path.join(assets, file_name)
    urdf = Urdf(path)
    info = info_json(binary, path)
    independent = [j["name"] for j in urdf.independent_joints()]
    assert sorted(info["joints"]) == sorted(independent), (info["joints"], independent)
    assert sorted(info["links"]) == sorted(urdf.links), (info["links"], urdf.links)
    assert info["links"][0] == urdf.root, info["links"]
    assert info["dof"] == len(independent), info
    assert info["floating_base"] is False, info
    # Pose order is topological: every joint's parent link comes before its child.
    position = {link: i for i, link in enumerate(info["links"])}
    for joint in urdf.joints:
        assert position[joint["parent"]] < position[joint["child"]], joint["name"]
    if file_name != "quadruped.urdf":  # chains: the order is unique
        links, joints = urdf.chain_order()
        assert info["links"] == links, (info["links"], links)
        assert info["joints"] == joints, (info["joints"], joints)

    floating = info_json(binary, path, floating_base=True)
    assert floating["joints"][:7] == ["base_x", "base_y", "base_z", "base_qw", "base_qx",
                                      "base_qy", "base_qz"], floating["joints"]
    assert floating["joints"][7:] == info["joints"]
    assert floating["floating_base"] is True

    table = run([binary, "info", "--urdf", path]).stdout
    for name in independent + urdf.links:
        assert name in table, f"{file_name}: {name} missing from the table:\n{table}"
    print(f"ok: {file_name}: {len(independent)} joints, {len(urdf.links)} links")
