# SPDX-License-Identifier: MIT
"""An image's source lines, from its DWARF line table (Debian's
pyelftools): which addresses each line of each compilation unit's
files compiled to, and where each function begins in its source.

A function's first row (its prologue) is counted on the function's
declaration line (DW_AT_decl_line), as gcov does, and on its own line
unless that is the opening brace alone.

What the DWARF says is kept by the image's content (image_cache):
pyelftools took 0.3 to 1 s per image, which --firmware-coverage paid
again for each test of the same image; the sources, which may have
changed since, are read each time (the braces).
"""

import os
from dataclasses import dataclass, field

from perfcounter.target import image_cache

# image_cache's key: raise when what _from_dwarf() keeps changes
KEPT_AS = "lines-1"


@dataclass
class LineTable:
    """rows: sorted [(start, end, file, line)], an address range of
    code and the source line it came from; functions: {(file, name):
    (line, entry address)} of the functions with code."""
    rows: list = field(default_factory=list)
    functions: dict = field(default_factory=dict)

    @property
    def files(self):
        return sorted({r[2] for r in self.rows})


def read(path):
    """The LineTable of the ELF image at path (empty without DWARF)."""
    try:
        _, sha = image_cache.content(path)
    except OSError:
        return LineTable()
    table = _table(image_cache.get(sha, KEPT_AS, part="lines"))
    if table is None:
        kept = _from_dwarf(path)
        if kept is None:
            return LineTable()
        image_cache.put(sha, KEPT_AS, kept, part="lines")
        table = _table(kept)
    return table


def _from_dwarf(path):
    """What the image's DWARF says (as _table() reads it), or None if it
    cannot be read: {"files": [path], "rows": [[start, end, file's
    index, line, the function's declaration line where a function
    begins on another line of its file, else None]], "functions":
    [[file's index, name, declaration line, entry address]]}."""
    from elftools.common.exceptions import DWARFError, ELFError
    from elftools.elf.elffile import ELFFile
    kept = {"files": [], "rows": [], "functions": []}
    files = {}          # a file: its index in kept["files"]

    def index(file):
        if file not in files:
            files[file] = len(kept["files"])
            kept["files"].append(file)
        return files[file]
    functions = {}      # (file, name): (line, entry address)
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            if elf.has_dwarf_info():
                dwarf = elf.get_dwarf_info()
                for cu in dwarf.iter_CUs():
                    _read_unit(dwarf, cu, index, kept["rows"], functions)
    except (ELFError, DWARFError, OSError):
        return None
    kept["functions"] = [[index(file), name, line, address]
                         for (file, name), (line, address) in
                         functions.items()]
    return kept


def _table(kept):
    """The LineTable of what _from_dwarf() kept, or None if kept is not
    that (nothing, or a file damaged)"""
    try:
        files = kept["files"]
        table = LineTable()
        rows = table.rows
        for start, end, file, line, declared in kept["rows"]:
            file = files[file]
            if declared is None:
                if line:
                    rows.append((start, end, file, line))
                continue
            for counted in [declared] + ([] if _brace(file, line)
                                         else [line]):
                if counted:
                    rows.append((start, end, file, counted))
        rows.sort()
        for file, name, line, address in kept["functions"]:
            table.functions[(files[file], name)] = (line, address)
    except (TypeError, KeyError, IndexError, ValueError):
        return None
    return table


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) \
        else value


def _file_names(program, comp_dir):
    """{file index: absolute path} of a line program's files."""
    header = program.header
    dirs = [comp_dir] + [_text(d) for d in header["include_directory"]]
    first = 0 if header["version"] >= 5 else 1
    if header["version"] >= 5:
        dirs = [_text(d) for d in header["include_directory"]] or [comp_dir]
    names = {}
    for i, entry in enumerate(header["file_entry"]):
        directory = dirs[entry.dir_index] if entry.dir_index < len(dirs) \
            else comp_dir
        name = os.path.join(comp_dir, directory, _text(entry.name))
        names[i + first] = os.path.normpath(name)
    return names


def _read_unit(dwarf, cu, index, rows, functions):
    """A compilation unit's rows and functions, as _from_dwarf() keeps
    them (index(file): the file's index)"""
    top = cu.get_top_DIE()
    comp_dir = _text(top.attributes["DW_AT_comp_dir"].value) \
        if "DW_AT_comp_dir" in top.attributes else ""
    program = dwarf.line_program_for_CU(cu)
    if program is None:
        return
    names = _file_names(program, comp_dir)
    declared = _declarations(top, names)
    previous = None
    for entry in program.get_entries():
        state = entry.state
        if state is None:
            continue
        if previous and state.address > previous.address:
            file = names.get(previous.file)
            counted_on = None
            if previous.address in declared:
                entry_file, decl_line = declared[previous.address]
                if entry_file == file and decl_line != previous.line:
                    counted_on = decl_line
            if file:
                rows.append([previous.address, state.address, index(file),
                             previous.line, counted_on])
        previous = None if state.end_sequence else state
    for address, (file, line, name) in _entries(top, names).items():
        functions[(file, name)] = (line, address)


_sources = {}


def source_text(file):
    """The lines of the source file ([] if it cannot be read)."""
    if file not in _sources:
        try:
            with open(file, errors="replace") as f:
                _sources[file] = f.read().splitlines()
        except OSError:
            _sources[file] = []
    return _sources[file]


def source_line(file, line):
    """The text of line (from 1) of the source file; '' if it cannot
    be read."""
    text = source_text(file)
    return text[line - 1] if 0 < line <= len(text) else ""


def _brace(file, line):
    """Whether line of file is an opening brace alone (a function's,
    whose entry gcov counts on the declaration line)."""
    return source_line(file, line).strip() == "{"


def _subprograms(die):
    for child in die.iter_children():
        if child.tag == "DW_TAG_subprogram":
            yield child
        elif child.tag == "DW_TAG_namespace":
            yield from _subprograms(child)


def _entries(top, names):
    """{entry address: (file, declaration line, name)} of the unit's
    functions with code."""
    out = {}
    for die in _subprograms(top):
        attrs = die.attributes
        if not {"DW_AT_low_pc", "DW_AT_decl_line", "DW_AT_name"} <= \
                attrs.keys() or "DW_AT_decl_file" not in attrs:
            continue
        file = names.get(attrs["DW_AT_decl_file"].value)
        if file:
            out[attrs["DW_AT_low_pc"].value & ~1] = (
                file, attrs["DW_AT_decl_line"].value,
                _text(attrs["DW_AT_name"].value))
    return out


def _declarations(top, names):
    """{entry address: (file, declaration line)}: where each function's
    first row is counted."""
    return {address: (file, line)
            for address, (file, line, _) in _entries(top, names).items()}
