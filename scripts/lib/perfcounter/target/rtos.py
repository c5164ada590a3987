# SPDX-License-Identifier: MIT
"""Where an RTOS keeps its running task, read from the image's symbols
and DWARF (Debian's pyelftools), for the plugin's tasks= option: the
address of the pointer to the running task's control block, and the
offsets in that block of the task's name and of its stack's lowest
address. Read from the debug information, not hard-coded, so that a
configuration that moves fields (or lengthens names) keeps working.

To add an RTOS, add a function to KNOWN that returns a Layout from the
image (its symbols) and a Dwarf, or None when the image is not built
on that RTOS (docs/tasks.md).
"""

from dataclasses import dataclass

from elftools.elf.elffile import ELFFile


@dataclass
class Layout:
    rtos: str
    current: int            # address of the pointer to the running task
    name_offset: int        # its name: a char array in the block
    name_len: int
    stack_offset: int       # its stack's lowest address; None: unknown

    def plugin_option(self):
        stack = "-" if self.stack_offset is None else self.stack_offset
        return (f"tasks={self.current:#x}:{self.name_offset}:"
                f"{self.name_len}:{stack}")


class Dwarf:
    """The structure types of an image's DWARF, by name: those declared
    at a compilation unit's top level (C's), read when first asked for
    (a whole image's DWARF takes seconds to parse; its top levels not)."""

    def __init__(self, path):
        self._dies = {}
        self._structs = {}
        self._file = open(path, "rb")
        elf = ELFFile(self._file)
        if not elf.has_dwarf_info():
            return
        for cu in elf.get_dwarf_info().iter_CUs():
            for die in cu.get_top_DIE().iter_children():
                if die.tag == "DW_TAG_structure_type" and \
                        "DW_AT_name" in die.attributes and \
                        die.has_children:
                    name = die.attributes["DW_AT_name"].value.decode()
                    self._dies.setdefault(name, die)

    def close(self):
        self._file.close()

    def struct(self, name):
        """{member: (offset, type info)} of struct name, or None."""
        if name not in self._structs and name in self._dies:
            self._structs[name] = _struct(self._dies[name])
        return self._structs.get(name)

    def member(self, struct, *path):
        """(offset, type DIE info) of struct.path[0].path[1]..."""
        offset = 0
        members = self.struct(struct)
        info = None
        for name in path:
            if members is None or name not in members:
                return None
            off, info = members[name]
            offset += off
            members = info.get("members")
        return offset, info


def _member_offset(die):
    attr = die.attributes.get("DW_AT_data_member_location")
    if attr is None:
        return 0
    if isinstance(attr.value, int):
        return attr.value
    # an expression: DW_OP_plus_uconst N
    return attr.value[-1] if attr.value else 0


def _type_info(die):
    """What a member's type is: an array's length, a struct's members
    (through typedefs and qualifiers)."""
    while die is not None and die.tag in ("DW_TAG_typedef",
                                          "DW_TAG_volatile_type",
                                          "DW_TAG_const_type"):
        die = die.get_DIE_from_attribute("DW_AT_type") \
            if "DW_AT_type" in die.attributes else None
    if die is None:
        return {}
    if die.tag == "DW_TAG_array_type":
        for sub in die.iter_children():
            if sub.tag == "DW_TAG_subrange_type":
                if "DW_AT_count" in sub.attributes:
                    return {"length": sub.attributes["DW_AT_count"].value}
                if "DW_AT_upper_bound" in sub.attributes:
                    return {"length":
                            sub.attributes["DW_AT_upper_bound"].value + 1}
        return {}
    if die.tag == "DW_TAG_structure_type" and die.has_children:
        return {"members": _struct(die)}
    return {}


def _struct(die):
    members = {}
    for child in die.iter_children():
        if child.tag == "DW_TAG_member" and "DW_AT_name" in child.attributes:
            name = child.attributes["DW_AT_name"].value.decode()
            members[name] = (_member_offset(child),
                             _LazyType(child))
    return members


class _LazyType(dict):
    """A member's type information, read when first asked for."""

    def __init__(self, die):
        super().__init__()
        self._die = die
        self._read = False

    def get(self, key, default=None):
        if not self._read:
            self._read = True
            if "DW_AT_type" in self._die.attributes:
                self.update(_type_info(
                    self._die.get_DIE_from_attribute("DW_AT_type")))
        return super().get(key, default)


def freertos(symbols, dwarf):
    if "pxCurrentTCB" not in symbols:
        return None
    name = dwarf.member("tskTaskControlBlock", "pcTaskName")
    if not name or not name[1].get("length"):
        return None
    stack = dwarf.member("tskTaskControlBlock", "pxStack")
    return Layout("FreeRTOS", symbols["pxCurrentTCB"], name[0],
                  name[1]["length"], stack[0] if stack else None)


def zephyr(symbols, dwarf):
    if "_kernel" not in symbols:
        return None
    current = dwarf.member("z_kernel", "cpus")
    in_cpu = dwarf.member("_cpu", "current")
    name = dwarf.member("k_thread", "name")
    if not current or not in_cpu or not name or not name[1].get("length"):
        return None             # no CONFIG_THREAD_NAME: named by stack
    stack = dwarf.member("k_thread", "stack_info", "start")
    return Layout("Zephyr", symbols["_kernel"] + current[0] + in_cpu[0],
                  name[0], name[1]["length"], stack[0] if stack else None)


KNOWN = [freertos, zephyr]


def layout(image):
    """The Layout of the RTOS image (an elf.Image) runs, or None; a
    str saying what is missing for an RTOS it seems to run."""
    if not any(s in image.symbols for s in ("pxCurrentTCB", "_kernel")):
        return None
    dwarf = Dwarf(image.path)
    try:
        for rtos in KNOWN:
            found = rtos(image.symbols, dwarf)
            if found:
                return found
    finally:
        dwarf.close()
    return ("the image has an RTOS's running-task pointer but no DWARF "
            "for its task control block (build the RTOS with -g; Zephyr "
            "also with CONFIG_THREAD_NAME)")
