# SPDX-License-Identifier: MIT
"""On the virt boards, each core appears in the device tree QEMU gives
the guest, under the platform bus, where system.h says it is, with the
interrupt system.h says it has, in the form its interrupt controller
takes."""

import re
import subprocess
import tempfile
from pathlib import Path

from bootlib import command, core_irqs
from perfcounter import boards


def dump_dts(ctx, board):
    """The device tree of board, as the scripts start it, in source form."""
    with tempfile.TemporaryDirectory() as tmp:
        dtb = Path(tmp) / "board.dtb"
        cmd = command(ctx, board, ctx.firmware(
            board, "firmware/examples/checksum.elf"), tmp) + [
            "-machine", f"dumpdtb={dtb}"]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0 and dtb.exists(), proc.stderr
        dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts",
                              str(dtb)], capture_output=True, text=True,
                             check=True)
    return dts.stdout


def node_properties(dts, name):
    """The properties of the node called name, as {property: text}."""
    m = re.search(rf"\b{re.escape(name)} {{\n(.*?)\n\t*}};", dts, re.S)
    assert m, f"no node {name} in:\n{dts}"
    return dict(re.findall(r"^\s*([\w,#-]+) = (.*);$", m.group(1), re.M))


def cells(text):
    return [int(c, 0) for c in text.strip("<>").split()]


def interrupt_parent(dts, bus):
    """The name and properties ({property: text or ""}) of the node the
    bus's interrupt-parent names."""
    phandle = cells(bus["interrupt-parent"])[0]
    # A node's properties come before its subnodes
    for m in re.finditer(r"^\t*([\w,@.-]+) {\n((?:\t*[^\n{}]*;\n)*)",
                         dts, re.M):
        props = dict(re.findall(r"^\s*([\w,#-]+)(?: = (.*))?;$",
                                m.group(2), re.M))
        if "phandle" in props and cells(props["phandle"]) == [phandle]:
            return m.group(1), props
    raise AssertionError(f"no node has phandle {phandle:#x}")


def check_nodes(ctx, board, bus_base, intc_compatible, interrupt):
    dts = dump_dts(ctx, board)
    bus = node_properties(dts, f"platform-bus@{bus_base:x}")
    # ranges: child address 0 is bus_base, over 32 MiB
    assert cells(bus["ranges"])[-2:] == [bus_base, 0x2000000], bus
    # The cores inherit the bus's interrupt-parent
    name, intc = interrupt_parent(dts, bus)
    assert intc_compatible in intc["compatible"], (name, intc)
    assert "interrupt-controller" in intc, (name, intc)
    irqs = core_irqs(board)
    for base, sections in board.counters:
        offset = base - bus_base
        node = node_properties(dts, f"perf-counter@{offset:x}")
        assert node["compatible"] == '"qemu,perf-counter"', node
        assert cells(node["reg"]) == [offset, 0x1000], node
        assert cells(node["num-sections"]) == [sections], node
        assert cells(node["clock-frequency"]) == [board.freq], node
        assert "interrupt-parent" not in node, node
        spec = interrupt(irqs[base])
        assert cells(node["interrupts"]) == spec, (node, spec)
        assert cells(intc["#interrupt-cells"]) == [len(spec)], intc


def test_arm_virt_node(ctx, board):
    # GIC: SPI, number (interrupt ID - 32), level-high; system.h has IDs
    check_nodes(ctx, boards.get("arm-virt"), 0x0c000000, "arm,cortex-a15-gic",
                lambda gic_id: [0, gic_id - 32, 4])


def test_aarch64_virt_node(ctx, board):
    # The same GICv2 and platform bus as arm-virt's
    check_nodes(ctx, boards.get("aarch64-virt"), 0x0c000000,
                "arm,cortex-a15-gic", lambda gic_id: [0, gic_id - 32, 4])


def test_riscv32_virt_node(ctx, board):
    # PLIC: the source number, one cell
    check_nodes(ctx, boards.get("riscv32-virt"), 0x04000000, "riscv,plic0",
                lambda source: [source])
