# SPDX-License-Identifier: MIT
"""Where an RTOS keeps its running task, read from the image's symbols
and DWARF (Debian's pyelftools), for the plugin's tasks= option: the
address of the pointer to the running task's control block, and the
offsets in that block of the task's name and of its stack's lowest
address. Read from the debug information, not hard-coded, so that a
configuration that moves fields (or lengthens names) keeps working.
And, where the RTOS keeps each task's state as the list it is in
(FreeRTOS), those lists and the kernel's code that moves tasks between
them, for the plugin's watch= (task instances: results/instances.py).

To add an RTOS, add a function to KNOWN that returns a Layout from the
image (its symbols) and a Dwarf, or None when the image is not built
on that RTOS (docs/tasks.md).
"""

import dataclasses
from dataclasses import dataclass

from perfcounter.target import image_cache


@dataclass
class States:
    """A task's state as the list its item is in: the kernel stores the
    list's address in the item's container pointer."""
    state_offset: int       # that pointer of the task's state item
    event_offset: int       # ... of its event item (a queue's waiters)
    lists: dict             # {a list's address: what being in it means:
    #                          "ready", "delayed", "suspended", "deleted",
    #                          or "pending" (made ready, the scheduler
    #                          suspended: through the event item)}
    code: list              # [(start, end)] of the kernel's code
    queue_waits: dict = None  # {offset in a queue of a list of its
    #                            waiters: "to send" or "to receive"}

    def plugin_options(self):
        """watch= the kernel's code, watch-value= each list's address."""
        return [f"watch={start:#x}-{end:#x}" for start, end in self.code] + \
            [f"watch-value={addr:#x}-{addr + 1:#x}"
             for addr in sorted(self.lists)]


@dataclass
class Layout:
    """Where an RTOS keeps what the plugin follows: the running task's
    pointer and, in its control block, the task's name and stack."""
    rtos: str
    current: int            # address of the pointer to the running task
    name_offset: int        # its name: a char array in the block
    name_len: int
    stack_offset: int       # its stack's lowest address; None: unknown
    states: States = None   # where its tasks' states are; None: unknown

    def plugin_option(self):
        stack = "-" if self.stack_offset is None else self.stack_offset
        return (f"tasks={self.current:#x}:{self.name_offset}:"
                f"{self.name_len}:{stack}")


class Dwarf:
    """The structure types of an image's DWARF, by name: those declared
    at a compilation unit's top level (C's), read when first asked for.
    A whole image's DWARF takes seconds to parse, its units' top levels
    a third of a second on FreeRTOS's demos: the units of the code at
    near (the RTOS's own functions: .debug_aranges says which unit each
    is in) are read first, the others only if a type is not found."""

    def __init__(self, path, near=()):
        self._dies = {}
        self._structs = {}
        self._read = set()          # the units read, by offset
        self._all_read = False
        self._info = None
        from elftools.elf.elffile import ELFFile   # (when not cached)
        self._file = open(path, "rb")
        elf = ELFFile(self._file)
        if not elf.has_dwarf_info():
            return
        self._info = elf.get_dwarf_info()
        self._aranges = self._info.get_aranges()
        for addr in near:
            self._read_unit(self._unit_at(addr))

    def _unit_at(self, addr):
        """The unit whose code is at addr, or None."""
        offset = self._aranges.cu_offset_at_addr(addr) \
            if self._aranges else None
        return self._info.get_CU_at(offset) if offset is not None else None

    def _read_unit(self, cu):
        if cu is None or cu.cu_offset in self._read:
            return
        self._read.add(cu.cu_offset)
        for die in cu.get_top_DIE().iter_children():
            if die.tag == "DW_TAG_structure_type" and \
                    "DW_AT_name" in die.attributes and die.has_children:
                name = die.attributes["DW_AT_name"].value.decode()
                self._dies.setdefault(name, die)

    def _die(self, name):
        if name not in self._dies and not self._all_read and self._info:
            self._all_read = True
            for cu in self._info.iter_CUs():
                self._read_unit(cu)
        return self._dies.get(name)

    def close(self):
        self._file.close()

    def struct(self, name):
        """{member: (offset, type info)} of struct name, or None."""
        if name not in self._structs and self._die(name):
            self._structs[name] = _struct(self._dies[name])
        return self._structs.get(name)

    def byte_size(self, struct):
        """sizeof(struct name), or None."""
        die = self._die(struct)
        attr = die.attributes.get("DW_AT_byte_size") if die else None
        return attr.value if attr else None

    def unit_code(self, starts, *near):
        """[(start, end)] of the functions compiled in the units of the
        code at near (a source file's, tasks.c's), of those that start at
        one of starts (the image's: the linker dropped the others)."""
        out = []
        for addr in near:
            cu = self._unit_at(addr) if self._info else None
            if cu is None:
                continue
            for die in cu.get_top_DIE().iter_children():
                low = die.attributes.get("DW_AT_low_pc")
                high = die.attributes.get("DW_AT_high_pc")
                if die.tag == "DW_TAG_subprogram" and low and high:
                    end = high.value if high.form == "DW_FORM_addr" \
                        else low.value + high.value
                    if end > low.value and low.value & ~1 in starts:
                        out.append((low.value & ~1, end & ~1))
        return _merged(out)

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


def _merged(ranges):
    out = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


# FreeRTOS's functions whose units have its types and move its tasks
# between their lists: tasks.c's and list.c's; queue.c's has its queues'
FREERTOS_KERNEL = ("xTaskIncrementTick", "vListInsertEnd", "vListInsert",
                   "uxListRemove")
FREERTOS_UNITS = FREERTOS_KERNEL + ("xQueueGenericSend",)
# FreeRTOS's state lists (tasks.c), by what a task in one is
FREERTOS_LISTS = {"xDelayedTaskList1": "delayed",
                  "xDelayedTaskList2": "delayed",
                  "xSuspendedTaskList": "suspended",
                  "xTasksWaitingTermination": "deleted",
                  "xPendingReadyList": "pending"}


def freertos(image, dwarf):
    symbols = image.symbols
    if "pxCurrentTCB" not in symbols:
        return None
    name = dwarf.member("tskTaskControlBlock", "pcTaskName")
    if not name or not name[1].get("length"):
        return None
    stack = dwarf.member("tskTaskControlBlock", "pxStack")
    return Layout("FreeRTOS", symbols["pxCurrentTCB"], name[0],
                  name[1]["length"], stack[0] if stack else None,
                  _freertos_states(image, dwarf))


def _freertos_states(image, dwarf):
    """Its tasks' states: the list its xStateListItem is in (a ready list
    of pxReadyTasksLists, a delayed list...), which only tasks.c and
    list.c change; None without them."""
    # (pvContainer before FreeRTOS 10.5)
    state = dwarf.member("tskTaskControlBlock", "xStateListItem",
                         "pxContainer") or \
        dwarf.member("tskTaskControlBlock", "xStateListItem", "pvContainer")
    event = dwarf.member("tskTaskControlBlock", "xEventListItem",
                         "pxContainer") or \
        dwarf.member("tskTaskControlBlock", "xEventListItem", "pvContainer")
    ready = image.objects.get("pxReadyTasksLists")
    size = dwarf.byte_size("xLIST")
    code = dwarf.unit_code({start for start, _, _ in image.functions},
                           *_addresses(image, FREERTOS_KERNEL))
    if not state or not ready or not size or not code:
        return None
    lists = {ready[0] + k: "ready" for k in range(0, ready[1], size)}
    for symbol, kind in FREERTOS_LISTS.items():
        if symbol in image.objects and (kind != "pending" or event):
            lists[image.objects[symbol][0]] = kind
    waits = {}
    for member, way in (("xTasksWaitingToSend", "to send"),
                        ("xTasksWaitingToReceive", "to receive")):
        found = dwarf.member("QueueDefinition", member)
        if found:
            waits[found[0]] = way
    return States(state[0], event[0] if event else None, lists, code,
                  waits)


def zephyr(image, dwarf):
    symbols = image.symbols
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


def _addresses(image, functions):
    return [image.symbols[f] & ~1 for f in functions if f in image.symbols]


def layout(image):
    """The Layout of the RTOS image (an elf.Image) runs, or None; a
    str saying what is missing for an RTOS it seems to run. Kept by the
    image's content (image_cache) once read."""
    if not any(s in image.symbols for s in ("pxCurrentTCB", "_kernel")):
        return None
    if image.sha256:
        kept = image_cache.get(image.sha256, "rtos")
        try:
            if kept is not None:
                return _restored(kept)
        except (TypeError, KeyError, ValueError):
            pass                # kept by a version that laid it out otherwise
    found = _read_layout(image)
    if image.sha256:
        image_cache.put(image.sha256, "rtos", _kept(found))
    return found


def _kept(found):
    if not isinstance(found, Layout):
        return {"message": found}
    kept = dataclasses.asdict(found)
    if found.states:
        kept["states"]["lists"] = sorted(found.states.lists.items())
        kept["states"]["queue_waits"] = sorted(
            (found.states.queue_waits or {}).items())
    return kept


def _restored(kept):
    if "message" in kept:
        return kept["message"]
    states = kept.pop("states")
    if states:
        states = States(**dict(states, lists=dict(states["lists"]),
                               queue_waits=dict(states["queue_waits"]),
                               code=[tuple(r) for r in states["code"]]))
    return Layout(**kept, states=states)


def _read_layout(image):
    dwarf = Dwarf(image.path, _addresses(image, FREERTOS_UNITS))
    try:
        for rtos in KNOWN:
            found = rtos(image, dwarf)
            if found:
                return found
    finally:
        dwarf.close()
    return ("the image has an RTOS's running-task pointer but no DWARF "
            "for its task control block (build the RTOS with -g; Zephyr "
            "also with CONFIG_THREAD_NAME)")
