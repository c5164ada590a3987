# SPDX-License-Identifier: MIT
# Firmware's tests as users write them (docs/testing-your-firmware.md):
# pytest --firmware=build/BOARD/tests/firmware/shell.elf --board BOARD
import pytest

COMMANDS = [("fib 20", r"fib\(20\) = 6765\r\n", 20000),
            ("crc 100", r"crc32\(100\) = 0x58c932f5\r\n", 40000),
            ("sort 50", r"sorted 50 words, checksum 304714379\r\n", 40000)]


@pytest.mark.parametrize("command, answer, budget", COMMANDS)
def test_command(dut, command, answer, budget):
    dut.expect("> ")
    with dut.step(command.split()[0]) as step:
        dut.send_line(command)
        dut.expect(answer)
    assert step.cycles <= budget
