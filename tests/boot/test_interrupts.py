# SPDX-License-Identifier: MIT
"""The cores' interrupt lines, end to end on every board: a time
threshold armed on the global counter of each core system.h declares
raises the core's line, the board's vector dispatches it to the handler
perfctr_irq_attach() installed, with the pc the program resumes at
(tests/firmware/interrupts.c).  QEMU wires the line (the board code, or
the platform bus), the firmware unmasks it at the board's interrupt
controller."""

from perfcounter.target import elf
from bootlib import booted_records, core_irqs

PER_BOARD = True


def interrupts(ctx, board):
    return booted_records(ctx, board, "tests/firmware/interrupts.elf")


def test_each_core_interrupts_its_handler_once(ctx, board):
    records, output = interrupts(ctx, board)
    cores = records.get("irq", [])
    assert [r["base"] for r in cores] == list(core_irqs(board)), output
    for rec in cores:
        assert rec["attached"] == 0, output
        # The handler disarms and acknowledges: one interrupt, line low
        assert rec["taken"] == 1, output
        assert rec["cleared"] == 1, output


def test_handler_gets_the_interrupted_pc(ctx, board):
    records, output = interrupts(ctx, board)
    image = elf.read(ctx.firmware(board, "tests/firmware/interrupts.elf"))
    assert records.get("irq"), output
    for rec in records["irq"]:
        # Inside the loop the program spun in until the handler ran
        assert image.function_name(rec["pc"]) == "spin", (
            f"pc {rec['pc']:#x} is in {image.function_at(rec['pc'])}, "
            f"not in spin():\n{output}")


def test_interrupt_without_handler_disables_the_line_once(ctx, board):
    records, output = interrupts(ctx, board)
    base = next(iter(core_irqs(board)))
    # The program went on (no interrupt storm) with the flag still set
    assert records.get("no_handler") == [
        {"base": base, "pending": 1, "done": 1}], output
    said = [line for line in output.splitlines()
            if line.startswith("perf-counter: an interrupt from the core")]
    assert said == [
        f"perf-counter: an interrupt from the core at {base:#010x}, which "
        f"has no handler (perfctr_irq_attach): its line is disabled"], \
        output


def test_base_without_a_line_is_refused(ctx, board):
    records, output = interrupts(ctx, board)
    assert records.get("no_line") == [{"enable": -1, "attach": -1}], output
