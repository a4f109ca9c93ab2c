"""Hostile and unlucky inputs for swarm's programs: the files an attacker or a broken pipeline
hands them (URDF and PNG), written by the functions below. hostile_input_test.py runs the programs
on them; the fuzz seeds (tests/fuzz/make_seeds.py) include them too."""

import random
import struct
import zlib


# ---------------------------------------------------------------------------------------------
# URDF

def urdf_robot(body):
    return f'<robot name="r">{body}</robot>'


def urdf_deep(depth=50_000):
    """Elements nested `depth` deep: a recursive XML parser runs out of stack."""
    return urdf_robot('<link name="a"/>' + "<x>" * depth + "</x>" * depth)


def urdf_many_attributes(count=200_000):
    """One element with `count` attributes: a parser with a linear attribute search is quadratic."""
    attributes = " ".join(f'a{i}="1"' for i in range(count))
    return urdf_robot(f'<link name="a" {attributes}/>')


def urdf_padded(total_bytes):
    """A valid robot inside a comment-padded text of about total_bytes bytes."""
    robot = urdf_robot('<link name="a"/>')
    return "<!--" + "x" * max(0, total_bytes - len(robot) - 7) + "-->" + robot


def urdf_self_loop_and_typo():
    """A joint from a link to itself next to a joint whose <child> is misspelt: the parser links a
    shared_ptr cycle, then fails, and the cycle used to leak."""
    return urdf_robot(
        '<link name="a"/><link name="b"/>'
        '<joint name="self" type="fixed"><parent link="b"/><child link="b"/></joint>'
        '<joint name="typo" type="fixed"><parent link="a"/><chld link="b"/></joint>')


def urdf_chain(links, extra_root=False):
    """A chain of `links` links as long as the element limit allows (about 25,000): deep trees
    must not recurse in the loader or in urdfdom's destructors; with extra_root, urdfdom fails
    after linking the whole chain."""
    body = "".join(f'<link name="l{i}"/>' for i in range(links))
    body += '<link name="extra"/>' if extra_root else ""
    body += "".join(f'<joint name="j{i}" type="fixed"><parent link="l{i}"/>'
                    f'<child link="l{i + 1}"/></joint>' for i in range(links - 1))
    return urdf_robot(body)


def urdf_joint(origin="", axis="", limit='<limit lower="-1" upper="1" effort="1" velocity="1"/>'):
    return urdf_robot(
        '<link name="a"/><link name="b"/>'
        f'<joint name="hinge" type="revolute"><parent link="a"/><child link="b"/>{origin}{axis}'
        f'{limit}</joint>')


def urdf_huge_axis():
    return urdf_joint(axis='<axis xyz="1e308 1e308 0"/>')


def urdf_huge_origin():
    return urdf_joint(origin='<origin xyz="1e308 0 0"/>')


def urdf_origin_beyond_float():
    return urdf_joint(origin='<origin xyz="0 0 1e39"/>')


def urdf_invalid_utf8():
    return ('<robot name="r"><link name="a\xff"/></robot>').encode("latin-1")


# Names that JSON must escape or that are not ASCII: (text in the XML, the name it means).
ODD_NAMES = [("quote&quot;d", 'quote"d'), ("back\\slash", "back\\slash"),
             ("tab&#9;bed", "tab\tbed"), ("caf\u00e9", "caf\u00e9"),
             ("\u65e5\u672c", "\u65e5\u672c"), ("amp&amp;lt", "amp&lt")]


def urdf_odd_names():
    """A valid robot whose link and joint names need escaping in JSON."""
    links = "".join(f'<link name="l{xml}"/>' for xml, _ in ODD_NAMES)
    joints = "".join(
        f'<joint name="j{xml}" type="continuous"><parent link="base"/><child link="l{xml}"/>'
        f'<axis xyz="0 0 1"/></joint>' for xml, _ in ODD_NAMES)
    return urdf_robot('<link name="base"/>' + links + joints).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# PNG

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_chunk(kind, data, length=None):
    """A chunk; `length` may lie about the data's size."""
    size = len(data) if length is None else length
    return struct.pack(">I", size) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_ihdr(width, height, color_type=6, bit_depth=8, interlace=0):
    return png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0,
                                          interlace))


def png_image(width, height, color_type=2, extra_chunks=b""):
    """A valid 8-bit image (RGB by default) of hashed noise, which compresses poorly, with extra
    chunks before IDAT."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    noise = random.Random(width * 65536 + height)
    rows = b"".join(b"\x00" + noise.randbytes(width * channels) for _ in range(height))
    return (PNG_SIGNATURE + png_ihdr(width, height, color_type) + extra_chunks +
            png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))


def png_text_claims(kind=b"tEXt", claimed=0x7FFF0000):
    """A 1x1 image header and then a text chunk that claims ~2 GB (only a few bytes follow)."""
    return PNG_SIGNATURE + png_ihdr(1, 1) + png_chunk(kind, b"key\x00value", length=claimed)


def png_ztxt_bomb(chunks=40, inflated_bytes=7_500_000):
    """A valid 16x16 image carrying zTXt chunks that each inflate to inflated_bytes."""
    bomb = zlib.compress(b"\x00" * inflated_bytes, 9)
    text = b"".join(png_chunk(b"zTXt", b"Comment\x00\x00" + bomb) for _ in range(chunks))
    return png_image(16, 16, extra_chunks=text)


def png_claims_huge(width=16384, height=16384):
    """A 68-byte file whose header claims width x height RGBA and whose data stops at once."""
    idat = zlib.compress(b"\x00" * 16)
    return PNG_SIGNATURE + png_ihdr(width, height) + png_chunk(b"IDAT", idat) + \
        png_chunk(b"IEND", b"")
