"""The Python package's ctypes side against the C headers, so that neither can drift from the other:

- every structure of swarm_c.h and DLPack 0.6 (dlpack/dlpack.h) has a ctypes mirror in
  engine/c_api/python/swarm/_structures.py with the same fields in the same order, and the same
  size, alignment and, field by field, offset, element size, kind (integer of which signedness,
  bool, float, pointer, structure) and element count as the C compiler gives them (printed by
  tests/python/c_api_layout.c);
- the enum values the package copies (dtype order, buffer kinds, binary and reduce ops, particle
  interactions and arrays, torque controllers, integrators, robot arrays, robot tasks, MAX_RANK,
  TASK_TOTALS_WORDS, kDLCPU) equal the header's, and every enumerator of an enum the package
  mirrors is mirrored;
- the signature table names exactly the functions swarm_c.h declares, each exported by
  libswarm_c.so, with the return and argument types the declaration translates to.

The headers are read with regular expressions (comments removed); c_api_layout.c must print every
structure, field and enumerator the parse finds, so the parse and the compiler check each other.

usage: test_c_api_layout.py LIBSWARM_C LAYOUT_PROGRAM SWARM_C_H DLPACK_H [unittest arguments]"""

import ctypes
import re
import subprocess
import sys
import unittest

if len(sys.argv) < 5:
    sys.exit(f"usage: {sys.argv[0]} path/to/libswarm_c.so path/to/c_api_layout "
             "path/to/swarm_c.h path/to/dlpack.h [unittest arguments]")
LAYOUT_PROGRAM, SWARM_C_H, DLPACK_H = sys.argv[2:5]
del sys.argv[2:5]  # swarm_test_support.main passes the rest to unittest

from swarm_test_support import library, main  # noqa: E402
import swarm  # noqa: E402
from swarm import _library, _structures, particles, robots, tensors  # noqa: E402

# The C enums the package copies: header enum -> (the package's table, the enumerator prefix).
# A table is a list (the index is the value) or a dict (name -> value); the enumerator of a name
# is prefix + NAME with '-' as '_', unless ENUMERATOR_NAMES spells it.
MIRRORED_ENUMS = {
    "swarm_dtype": ([name for name, _ in tensors.DTYPES], "SWARM_"),
    "swarm_buffer_kind": (tensors._BUFFER_KINDS, "SWARM_BUFFER_"),
    "swarm_binary_op": (tensors._BINARY_OPS, "SWARM_OP_"),
    "swarm_reduce_op": (tensors._REDUCE_OPS, "SWARM_REDUCE_"),
    "swarm_interaction": (particles._INTERACTIONS, "SWARM_INTERACTION_"),
    "swarm_particle_array": (particles._PARTICLE_ARRAYS, "SWARM_PARTICLE_"),
    "swarm_torque_controller": (robots._TORQUE_CONTROLLERS, "SWARM_TORQUE_"),
    "swarm_torque_integrator": (robots._INTEGRATORS, "SWARM_INTEGRATOR_"),
    "swarm_robot_array": (robots._ROBOT_ARRAYS, "SWARM_ROBOT_"),
    "swarm_robot_task_kind": (robots._ROBOT_TASKS, "SWARM_TASK_"),
    "swarm_urdf_collisions": (robots._URDF_COLLISIONS, "SWARM_URDF_COLLISIONS_"),
}
ENUMERATOR_NAMES = {("swarm_torque_integrator", "euler"): "SWARM_INTEGRATOR_SEMI_IMPLICIT_EULER"}
# Constants the package copies: its value -> the header's name.
MIRRORED_CONSTANTS = {
    "SWARM_MAX_RANK": _structures.MAX_RANK,
    "SWARM_TASK_TOTALS_WORDS": _structures.TASK_TOTALS_WORDS,
}

# C types of the headers' declarations, as ctypes.
C_SCALARS = {"void": None, "bool": ctypes.c_bool, "char": ctypes.c_char, "int": ctypes.c_int,
             "float": ctypes.c_float, "double": ctypes.c_double, "size_t": ctypes.c_size_t,
             "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int16_t": ctypes.c_int16,
             "uint16_t": ctypes.c_uint16, "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32,
             "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def without_preprocessor(text):
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))


class Header:
    """The declarations of one C header: typedef'd structures (fields in order, as (name, type
    text, is array)), enums (enumerators and values), constants, opaque handle typedefs and
    function declarations (return type text, parameter type texts)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            raw = strip_comments(f.read())
        self.constants = {name: int(value) for name, value in
                          re.findall(r"^\s*#\s*define\s+(\w+)\s+(\d+)\s*$", raw, flags=re.M)}
        text = without_preprocessor(raw)
        self.structs = {}
        for body, name in re.findall(r"typedef\s+struct\s*\w*\s*\{([^{}]*)\}\s*(\w+)\s*;", text):
            self.structs[name] = [field for declaration in body.split(";")
                                  if declaration.strip() for field in self._fields(declaration)]
        self.enums = {}
        for body, name in re.findall(r"(?:typedef\s+)?enum\s*\w*\s*\{([^{}]*)\}\s*(\w*)\s*;", text):
            values = {}
            for enumerator in body.split(","):
                if enumerator.strip():
                    key, value = enumerator.split("=")
                    values[key.strip()] = int(value.strip().rstrip("uU"))
            if name:
                self.enums[name] = values
            else:
                self.constants.update(values)
        self.handles = set(re.findall(r"typedef\s+struct\s+\w+\s*\*\s*(\w+)\s*;", text))
        self.functions = {}
        for returns, name, parameters in re.findall(
                r"([\w\s*]+?)\b(swarm_\w+)\s*\(([^()]*)\)\s*;", text):
            parameters = [p.strip() for p in parameters.split(",")]
            if parameters == ["void"]:
                parameters = []
            self.functions[name] = (returns.strip(), [drop_name(p) for p in parameters])

    @staticmethod
    def _fields(declaration):
        pointer = re.search(r"\(\s*\*\s*(\w+)\s*\)", declaration)  # a function pointer
        if pointer:
            return [(pointer.group(1), declaration[:pointer.start()].strip() + " (*)", False)]
        first, *more = [part.strip() for part in declaration.split(",")]
        match = re.fullmatch(r"(.*?)(\w+)\s*(\[[^\]]*\])?", first, flags=re.S)
        type_text = match.group(1).strip()
        fields = [(match.group(2), type_text, bool(match.group(3)))]
        for part in more:
            extra = re.fullmatch(r"(\**)\s*(\w+)\s*(\[[^\]]*\])?", part)
            fields.append((extra.group(2), type_text + extra.group(1), bool(extra.group(3))))
        return fields


def without_const(type_text):
    """A type's text without its const qualifiers (the word only: swarm_soft_constraint_desc
    keeps its name)."""
    return re.sub(r"\bconst\b", " ", type_text)


def drop_name(parameter):
    """The type of a parameter declaration ("const char* path" -> "const char*")."""
    match = re.fullmatch(r"(.*?[\w*]\s*?)\s*\b\w+", parameter.strip(), flags=re.S)
    return match.group(1).strip() if match else parameter.strip()


def mirror_name(struct_name):
    """The _structures class of a header structure: swarm_robot_batch_desc -> _RobotBatchDesc,
    DLPack's by their own names."""
    if struct_name.startswith("swarm_"):
        return "_" + "".join(word.capitalize() for word in struct_name[6:].split("_"))
    return struct_name


def ctypes_kind(ctype):
    """(kind, element size, elements) of a ctypes field type, in c_api_layout.c's terms."""
    if issubclass(ctype, ctypes.Array):
        kind, size, count = ctypes_kind(ctype._type_)
        return kind, size, count * ctype._length_
    size = ctypes.sizeof(ctype)
    if issubclass(ctype, ctypes.Structure):
        return "struct", size, 1
    if issubclass(ctype, (ctypes._Pointer, ctypes._CFuncPtr)) or ctype in (
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_wchar_p):
        return "pointer", size, 1
    if ctype is ctypes.c_bool:
        return "bool", size, 1
    if ctype in (ctypes.c_float, ctypes.c_double, ctypes.c_longdouble):
        return "float", size, 1
    return ("int" if ctype(-1).value < 0 else "uint"), size, 1


class CApiLayoutTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.header = Header(SWARM_C_H)
        cls.dlpack = Header(DLPACK_H)
        output = subprocess.run([LAYOUT_PROGRAM], check=True, capture_output=True,
                                text=True).stdout
        cls.sizes, cls.fields, cls.constants = {}, {}, {}
        for line in output.splitlines():
            what, *values = line.split()
            if what == "struct":
                cls.sizes[values[0]] = (int(values[1]), int(values[2]))
                cls.fields[values[0]] = []
            elif what == "field":
                struct, name, offset, size, kind, count = values
                cls.fields[struct].append((name, int(offset), int(size), kind, int(count)))
            elif what == "constant":
                cls.constants[values[0]] = int(values[1])

    def header_structs(self):
        """Every structure of both headers: name -> (fields, the header's enum names)."""
        structs = {name: (fields, self.header.enums) for name, fields in
                   self.header.structs.items()}
        structs.update({name: (fields, self.dlpack.enums) for name, fields in
                        self.dlpack.structs.items()})
        return structs

    def test_the_layout_program_prints_every_structure_and_field_of_the_headers(self):
        for name, (fields, _) in self.header_structs().items():
            with self.subTest(struct=name):
                self.assertIn(name, self.fields, f"c_api_layout.c does not print {name}")
                self.assertEqual([field for field, *_ in self.fields[name]],
                                 [field for field, _, _ in fields],
                                 f"c_api_layout.c's fields of {name} differ from the header's")
        self.assertEqual(set(self.fields), set(self.header_structs()),
                         "c_api_layout.c prints structures the headers do not define")

    def test_every_structure_is_mirrored_with_the_c_layout(self):
        for name, (fields, enums) in self.header_structs().items():
            with self.subTest(struct=name):
                mirror = getattr(_structures, mirror_name(name), None)
                self.assertIsNotNone(mirror, f"{name} has no ctypes mirror "
                                     f"{mirror_name(name)} in _structures.py")
                self.assertEqual([field for field, *_ in mirror._fields_],
                                 [field for field, _, _ in fields],
                                 f"{mirror.__name__}'s fields differ from {name}'s")
                size, alignment = self.sizes[name]
                self.assertEqual(ctypes.sizeof(mirror), size,
                                 f"sizeof({name}) is {size}, ctypes.sizeof("
                                 f"{mirror.__name__}) {ctypes.sizeof(mirror)}")
                self.assertEqual(ctypes.alignment(mirror), alignment,
                                 f"alignof({name}) is {alignment}, ctypes.alignment("
                                 f"{mirror.__name__}) {ctypes.alignment(mirror)}")
                types = dict(mirror._fields_)
                c_types = {field: type_text for field, type_text, _ in fields}
                for field, offset, element_size, kind, count in self.fields[name]:
                    where = f"{name}.{field} ({mirror.__name__}.{field})"
                    python_offset = getattr(mirror, field).offset
                    self.assertEqual(python_offset, offset,
                                     f"{where}: offset {offset} in C, {python_offset} in ctypes")
                    python_kind, python_size, python_count = ctypes_kind(types[field])
                    if without_const(c_types[field]).strip() in enums:
                        # An enum: the compiler picks int or unsigned int; ctypes passes c_int.
                        self.assertEqual(python_kind, "int", f"{where}: an enum is a c_int, "
                                         f"not a {types[field].__name__}")
                    else:
                        self.assertEqual(python_kind, kind, f"{where}: {kind} in C, "
                                         f"{python_kind} ({types[field].__name__}) in ctypes")
                    self.assertEqual(python_size, element_size,
                                     f"{where}: {element_size} bytes in C, {python_size} in "
                                     "ctypes")
                    self.assertEqual(python_count, count,
                                     f"{where}: {count} elements in C, {python_count} in ctypes")
                    python_type = types[field]
                    if issubclass(python_type, ctypes.Array):
                        python_type = python_type._type_
                    if c_types[field].endswith("(*)"):
                        self.assertTrue(issubclass(python_type, ctypes._CFuncPtr),
                                        f"{where}: a function pointer in C, "
                                        f"{python_type.__name__} in ctypes")
                    else:
                        expected = self.ctypes_of(c_types[field])
                        self.assertIs(python_type, expected, f"{where}: {c_types[field]} in C "
                                      f"is {expected.__name__}, ctypes has "
                                      f"{python_type.__name__}")

    def test_the_layout_program_prints_every_enumerator_of_the_header(self):
        header_values = dict(self.header.constants)
        for values in self.header.enums.values():
            header_values.update(values)
        for name, value in header_values.items():
            with self.subTest(constant=name):
                self.assertIn(name, self.constants, f"c_api_layout.c does not print {name}")
                self.assertEqual(self.constants[name], value,
                                 f"{name}: the header parse reads {value}, the compiler "
                                 f"{self.constants[name]}")

    def test_copied_enum_values_equal_the_headers(self):
        for enum, (table, prefix) in MIRRORED_ENUMS.items():
            with self.subTest(enum=enum):
                self.assertIn(enum, self.header.enums, f"swarm_c.h has no enum {enum}")
                if isinstance(table, list):
                    items = [(name, value) for value, name in enumerate(table)]
                else:
                    items = list(table.items())
                mirrored = {}
                for name, value in items:
                    enumerator = ENUMERATOR_NAMES.get(
                        (enum, name), prefix + name.upper().replace("-", "_"))
                    mirrored[enumerator] = value
                    self.assertIn(enumerator, self.constants,
                                  f"{enum}: the package's {name!r} has no enumerator "
                                  f"{enumerator}")
                    self.assertEqual(value, self.constants[enumerator],
                                     f"{enum}: the package gives {name!r} {value}, swarm_c.h "
                                     f"gives {enumerator} {self.constants[enumerator]}")
                self.assertEqual(set(mirrored), set(self.header.enums[enum]),
                                 f"{enum}: the package's table and the header's enumerators "
                                 "differ")
        for name, value in MIRRORED_CONSTANTS.items():
            with self.subTest(constant=name):
                self.assertEqual(value, self.constants[name], f"{name} is "
                                 f"{self.constants[name]} in swarm_c.h, {value} in the package")

    def test_dlpack_device_is_the_cpu(self):
        context = library().context()
        device = context.vec4(1).tensor().__dlpack_device__()
        self.assertEqual(device, (self.constants["kDLCPU"], 0))

    def ctypes_of(self, type_text):
        """The ctypes type the package uses for a C type of the headers: handles as c_void_p,
        enums as c_int, (const) char* as c_char_p, struct DLManagedTensor* as c_void_p (the
        address a capsule holds), structures as their mirrors, pointers as POINTER()."""
        words = without_const(type_text).replace("*", " * ").split()
        pointers = words.count("*")
        base = " ".join(word for word in words if word != "*")
        if base in self.header.handles:
            ctype = ctypes.c_void_p
        elif base in self.header.enums or base in self.dlpack.enums:
            ctype = ctypes.c_int
        elif base in self.header.structs or base in self.dlpack.structs:
            ctype = getattr(_structures, mirror_name(base))
        elif base == "struct DLManagedTensor" and pointers:
            ctype, pointers = ctypes.c_void_p, pointers - 1
        else:
            self.assertIn(base, C_SCALARS, f"no ctypes type for {type_text!r}")
            ctype = C_SCALARS[base]
        if pointers and ctype in (ctypes.c_char, None):
            ctype, pointers = (ctypes.c_char_p if ctype else ctypes.c_void_p), pointers - 1
        for _ in range(pointers):
            ctype = ctypes.POINTER(ctype)
        return ctype

    def test_the_signature_table_is_the_header_declarations(self):
        table = _library._SIGNATURES
        declared = self.header.functions
        self.assertEqual(sorted(set(declared) - set(table)), [],
                         "functions of swarm_c.h missing from the signature table")
        self.assertEqual(sorted(set(table) - set(declared)), [],
                         "functions of the signature table that swarm_c.h does not declare")
        dll = ctypes.CDLL(library().path)
        for name, (returns, parameters) in declared.items():
            with self.subTest(function=name):
                self.assertTrue(hasattr(dll, name), f"libswarm_c.so does not export {name}")
                restype, argtypes = table[name]
                self.assertIs(restype, self.ctypes_of(returns),
                              f"{name} returns {returns}, the table says {restype}")
                self.assertEqual(len(argtypes), len(parameters),
                                 f"{name} takes {len(parameters)} arguments, the table gives "
                                 f"{len(argtypes)}")
                for index, (argtype, parameter) in enumerate(zip(argtypes, parameters)):
                    self.assertIs(argtype, self.ctypes_of(parameter),
                                  f"{name} argument {index} is {parameter}, the table says "
                                  f"{argtype.__name__}")

    def test_the_package_exports_what_it_did(self):
        for name in ["load", "Library", "Context", "Buffer", "Tensor", "RobotModel", "RobotBatch",
                     "PreparedExpression", "RobotTask", "SwarmError", "DTYPES", "TaskTotals",
                     "ParticleSystem", "dtype_code", "MAX_RANK", "TASK_TOTALS_WORDS", "DLDevice",
                     "DLDataType", "DLTensor", "DLManagedTensor", "LibraryNotFoundError"]:
            self.assertTrue(hasattr(swarm, name), f"swarm.{name} is missing")


if __name__ == "__main__":
    main()
