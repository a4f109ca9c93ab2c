"""Writes a fuzzer's seed corpus.
  npy:  small .npy files numpy writes for every dtype swarm reads, in C and Fortran order, format
        versions 1.0, 2.0 and 3.0, shapes of rank 0 to 3 (an empty one too);
  urdf: the robots of ../shared/urdf and assets/robots, and small versions of the hostile files
        of tests/cli/hostile_inputs.py;
  mjcf: the models of ../shared/mjcf, and small models of nested classes, includes and deep
        nesting;
  png:  images of every colour type and bit depth PNG allows, plain and Adam7-interlaced, with
        and without tRNS, plus hostile_inputs.py's crafted files;
  expression: text expressions over the harness's views a, b, c and m, using every operator,
        function and cast, and a few broken ones.

Usage: /usr/bin/python3 tests/fuzz/make_seeds.py npy|urdf|mjcf|png|expression OUTPUT_DIR
"""
import glob
import io
import os
import random
import sys
import zlib

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'tests', 'cli'))
import hostile_inputs as hostile  # noqa: E402

DESCRS = ['<f4', '<f8', '|i1', '<i2', '<i4', '<i8', '|u1', '<u2', '<u4', '<u8', '<c8', '<c16',
          '<f2', '|b1']
SHAPES = [(), (3,), (2, 3), (2, 0, 2), (2, 2, 3)]


def npy_seeds(out):
    for descr in DESCRS:
        for shape in SHAPES:
            for order in 'CF':
                for version in ((1, 0), (2, 0), (3, 0)):
                    a = np.arange(int(np.prod(shape))).astype(descr).reshape(shape)
                    if order == 'F':
                        a = np.asfortranarray(a)
                    buffer = io.BytesIO()
                    np.lib.format.write_array(buffer, a, version=version)
                    name = 'seed-%s-%s-%s-%d.npy' % (descr[1:], 'x'.join(map(str, shape)) or
                                                     'scalar', order, version[0])
                    with open(os.path.join(out, name), 'wb') as f:
                        f.write(buffer.getvalue())


def urdf_seeds(out):
    for pattern in (os.path.join(ROOT, '..', 'shared', 'urdf', '*.urdf'),
                    os.path.join(ROOT, 'assets', 'robots', '*.urdf')):
        for path in glob.glob(pattern):
            with open(path, 'rb') as f:
                write(out, 'robot-' + os.path.basename(path), f.read())
    small = {
        'deep': hostile.urdf_deep(70), 'attributes': hostile.urdf_many_attributes(40),
        'self-loop': hostile.urdf_self_loop_and_typo(), 'axis': hostile.urdf_huge_axis(),
        'origin': hostile.urdf_huge_origin(), 'float': hostile.urdf_origin_beyond_float(),
        'latin1': hostile.urdf_invalid_utf8(), 'odd-names': hostile.urdf_odd_names(),
    }
    for name, text in small.items():
        write(out, f'hostile-{name}.urdf', text if isinstance(text, bytes) else text.encode())


def pack_row(samples, bit_depth):
    """Packs one row of samples (each < 2**bit_depth) into bytes, big-endian for 16 bits."""
    if bit_depth == 16:
        return b''.join(v.to_bytes(2, 'big') for v in samples)
    if bit_depth == 8:
        return bytes(samples)
    out, bits, filled = bytearray(), 0, 0
    for v in samples:
        bits = (bits << bit_depth) | v
        filled += bit_depth
        if filled == 8:
            out.append(bits)
            bits, filled = 0, 0
    if filled:
        out.append(bits << (8 - filled))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
         (0, 1, 1, 2)]  # x0, y0, dx, dy


def png_file(width, height, color_type, bit_depth, interlace, extra=b'', seed=0):
    """A PNG of random samples; rows use filter type 0 (interlaced: pass by pass)."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    rng = random.Random(seed)
    top = (1 << bit_depth) - 1
    pixels = [[[rng.randint(0, top) for _ in range(channels)] for _ in range(width)]
              for _ in range(height)]
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = b''
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            row = [v for x in range(x0, width, dx) for v in pixels[y][x]]
            if row:
                raw += b'\x00' + pack_row(row, bit_depth)
    chunks = hostile.png_ihdr(width, height, color_type, bit_depth, interlace)
    if color_type == 3:
        chunks += hostile.png_chunk(b'PLTE', bytes(rng.randrange(256) for _ in range(3 << bit_depth)))
    chunks += extra
    return (hostile.PNG_SIGNATURE + chunks + hostile.png_chunk(b'IDAT', zlib.compress(raw)) +
            hostile.png_chunk(b'IEND', b''))


def png_seeds(out):
    depths = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
    for color_type, bit_depths in depths.items():
        for bit_depth in bit_depths:
            for interlace in (0, 1):
                name = f'seed-c{color_type}-d{bit_depth}-i{interlace}.png'
                write(out, name, png_file(11, 7, color_type, bit_depth, interlace))
    # Transparency chunks: a gray key, an RGB key, palette alphas; and a text chunk.
    write(out, 'seed-trns-gray.png', png_file(5, 4, 0, 8, 0, hostile.png_chunk(b'tRNS', b'\x00\x07')))
    write(out, 'seed-trns-rgb.png',
          png_file(5, 4, 2, 8, 0, hostile.png_chunk(b'tRNS', b'\x00\x01\x00\x02\x00\x03')))
    write(out, 'seed-trns-palette.png', png_file(5, 4, 3, 2, 0, hostile.png_chunk(b'tRNS', b'\x10\x80')))
    write(out, 'seed-text.png', png_file(3, 3, 2, 8, 0, hostile.png_chunk(b'tEXt', b'Title\x00swarm')))
    write(out, 'hostile-text-claims.png', hostile.png_text_claims())
    write(out, 'hostile-claims-huge.png', hostile.png_claims_huge())
    write(out, 'hostile-ztxt.png', hostile.png_ztxt_bomb(chunks=2, inflated_bytes=100_000))


EXPRESSIONS = [
    '(a - b) * c + 2',
    'where((a > b) & (c != 0) | ~m, a - b, sqrt(abs(c)) / 0.5)',
    'minimum(a, b) * maximum(c, 1e-3) - min(m, .5) + max(-a, +b)',
    'f16(a * 1e5) + bf16(b) - bool(c) * u8(a * 300) + s32(b) + f64(c)',
    'a <= b', 'a >= 2', 'a == m', 'a != a', '-(-(-a))', '((a))',
    'where(m, a, 0) / (b - b)', 'a * ', 'max(a b)', 'a < b < c', 'c64(a)', 'sin(a)', 'q + 1',
    '1.2.3', '(' * 300 + 'a' + ')' * 300,
]


def mjcf_seeds(out):
    for path in sorted(glob.glob(os.path.join(ROOT, '..', 'shared', 'mjcf', '*', '*.xml'))):
        name = os.path.basename(os.path.dirname(path)) + '-' + os.path.basename(path)
        with open(path, 'rb') as f:
            write(out, name, f.read())
    small = {
        'classes': '<mujoco><default><default class="a"><geom friction="0.6"/>'
                   '<default class="b"><joint damping="2"/></default></default>'
                   '<geom contype="0"/></default><worldbody><body childclass="b"><freejoint/>'
                   '<joint/><geom class="a" pos="1 2"/></body></worldbody>'
                   '<actuator><position class="a" kp="1"/><general/></actuator></mujoco>',
        'include': '<mujoco><include file="other.xml"/><worldbody/></mujoco>',
        'deep': '<mujoco><worldbody>' + '<body>' * 70 + '</body>' * 70 + '</worldbody></mujoco>',
        # A robot of every mapping rule: two anchored joints in a body (one with a ref), a slide,
        # inertia from geoms, a joint equality, the three actuators and a keyframe.
        'robot': '<mujoco><compiler angle="degree"/><option timestep="0.001"><flag '
                 'gravity="disable"/></option><worldbody><body name="a" pos="0 0 1">'
                 '<joint name="j1" pos="0.1 0 0" ref="10" range="-90 90"/><joint name="j2" '
                 'axis="0 1 0" pos="0 0.1 0"/><geom type="capsule" fromto="0 0 0 0 0 1" '
                 'size="0.1"/><body><joint name="j3" type="slide" ref="0.1"/><geom type="box" '
                 'size="0.1 0.2 0.3" mass="2"/><body><joint name="j4"/><geom type="ellipsoid" '
                 'size="0.1 0.2 0.3"/></body></body></body></worldbody><equality><joint '
                 'joint1="j4" joint2="j3" polycoef="0 2 0 0 0"/></equality><actuator><motor '
                 'joint="j1" gear="2" forcerange="-1 1"/><position joint="j2" kp="5" '
                 'inheritrange="0"/><general joint="j3" gainprm="3" biasprm="0 -3 -1" '
                 'biastype="affine"/></actuator><keyframe><key qpos="1 2 3 4" ctrl="1 2 3"/>'
                 '</keyframe></mujoco>',
        'floating': '<mujoco><worldbody><body name="torso" pos="0 0 1" quat="1 0 0 1">'
                    '<freejoint/><geom size="0.2"/><body><joint axis="1 0 0"/><geom '
                    'type="cylinder" size="0.05 0.2"/></body></body></worldbody><keyframe><key '
                    'qpos="0 0 1 1 0 0 0 0.5" qvel="1 0 0 0 0 1 2"/></keyframe></mujoco>',
        # A heightfield from numbers under a ball, and one from a file the fuzzer cannot see.
        'terrain': '<mujoco><asset><hfield name="t" nrow="3" ncol="2" size="1 1 0.2 0.1" '
                   'elevation="0 1 2 3 4 5"/><hfield name="f" file="t.png" size="1 1 1 1"/>'
                   '</asset><worldbody><geom type="hfield" hfield="t"/><body pos="0 0 1">'
                   '<freejoint/><geom size="0.1"/></body></worldbody></mujoco>',
    }
    for name, text in small.items():
        write(out, f'small-{name}.xml', text.encode())


def expression_seeds(out):
    for i, text in enumerate(EXPRESSIONS):
        write(out, f'seed-{i:02d}.txt', text.encode())


def write(out, name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    {'npy': npy_seeds, 'urdf': urdf_seeds, 'mjcf': mjcf_seeds, 'png': png_seeds,
     'expression': expression_seeds}[kind](out)
