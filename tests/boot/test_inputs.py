# SPDX-License-Identifier: MIT
"""Bad input gets a clear answer at once: images the board cannot boot,
awkward source paths, code that does not compile, bad options."""

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from perfcounter import boards
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
WEIRD_DIR = "a dir, with 'quotes' \"and\" é"


def profile(*args, timeout=120, env=None):
    return subprocess.run([str(PROFILE)] + [str(a) for a in args],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout,
                          env=dict(os.environ, **env) if env else None)


def refused(proc, *words):
    assert proc.returncode == 1, proc.stdout + proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


def test_a_file_that_is_not_an_elf_is_refused(ctx, board):
    refused(profile(REPO / "README.md"), "is not an ELF image")


def test_an_elf_for_another_architecture_names_its_board(ctx, board):
    image = ctx.firmware(boards.get("riscv32-virt"),
                         "tests/firmware/exit_code.elf")
    refused(profile("--board", "mps2-an385", image),
            "is built for RISC-V", "--board riscv32-virt")


def test_an_elf_for_another_memory_map_names_its_board(ctx, board):
    image = ctx.firmware(boards.get("arm-virt"),
                         "tests/firmware/exit_code.elf")
    refused(profile("--board", "mps2-an385", image),
            "outside mps2-an385's memory", "linked for arm-virt")


SPIN = """
void spin(void) { for (;;) ; }
__attribute__((section(".vectors"), used))
static void (*const vectors[])(void) = { (void (*)(void))0x20001000, spin };
"""


def build_spin(tmp):
    """A Cortex-M image that runs, but neither prints nor exits."""
    src, elf = Path(tmp) / "spin.c", Path(tmp) / "spin.elf"
    src.write_text(SPIN)
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m3", "-mthumb", "-O2",
                    "-nostdlib", "-Wl,--section-start=.vectors=0",
                    "-Wl,-Ttext=0x100", "-Wl,-e,spin", str(src), "-o",
                    str(elf)], check=True)
    return elf


def test_an_elf_without_semihosting_boots_and_a_stop_ends_it(ctx, board):
    """Firmware that cannot exit is booted as it is; without a stop the
    user is told what will end it."""
    with tempfile.TemporaryDirectory() as tmp:
        elf = build_spin(tmp)
        endless = profile("--timeout", "1", elf)
        stopped = profile("--stop-after", "10k", elf)
    assert endless.returncode == 124, endless.stderr
    assert "makes no semihosting call, so it cannot exit by itself" in \
        endless.stderr, endless.stderr
    assert stopped.returncode == 0, stopped.stderr
    assert "run: stopped after 10,000 instructions; 10,000 instructions" \
        in stopped.stderr, stopped.stderr
    assert "cannot exit by itself" not in stopped.stderr, stopped.stderr


@pytest.mark.parametrize("text", ["0x0", "0x10000000"])
def test_a_lockup_gives_its_reason_before_qemus_dump(ctx, board, text):
    """A Cortex-M fault that cannot be taken (no handler): QEMU aborts
    with its own register dump, profiled or not (sampling once died of
    SIGSEGV where the reset left the pc at 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        # Code where the vector table should be, or nothing: the core
        # locks up
        src, elf = Path(tmp) / "lockup.c", Path(tmp) / "lockup.elf"
        src.write_text("void spin(void) { for (;;) ; }\n")
        subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m3", "-mthumb",
                        "-nostdlib", f"-Wl,-Ttext={text}", "-Wl,-e,spin",
                        str(src), "-o", str(elf)], check=True)
        for mode in ([], ["--sample"]):
            proc = profile("--no-image-check", *mode, elf)
            assert proc.returncode not in (0, 124), proc.stderr
            lines = proc.stderr.splitlines()
            reason = [i for i, line in enumerate(lines) if line.startswith(
                "[perf-counter] guest fault: Lockup")]
            dump = [i for i, line in enumerate(lines)
                    if "qemu: fatal:" in line]
            assert reason and dump and reason[0] < dump[0], proc.stderr


def test_sources_in_a_directory_with_spaces_commas_and_quotes(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / WEIRD_DIR
        d.mkdir()
        (d / "answer, part 1.h").write_text("#define ANSWER 42\n")
        (d / "main, 1.c").write_text(
            '#include "answer, part 1.h"\n'
            "int part(void);\n"
            "int main(void) { return ANSWER + part(); }\n")
        (d / "part é.c").write_text("int part(void) { return 1; }\n")
        proc = profile("-I", d, d / "main, 1.c", d / "part é.c")
    assert proc.returncode == 43, proc.stderr


def test_a_run_directory_and_outputs_with_commas_and_spaces(ctx, board):
    """Every path QEMU and the plugin are given (the run directory, the
    image, the console, the plugin's results and the cores' readouts in
    PERF_COUNTER_BUILD) may hold commas and spaces: the profile, the
    cycles and every output as without them."""
    image = ctx.firmware(board, "tests/firmware/tasks.elf")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / WEIRD_DIR
        (d / "build, 2").mkdir(parents=True)
        shutil.copyfile(image, d / "tasks, 1.elf")
        proc = profile(d / "tasks, 1.elf", "--sample", "--cycles",
                       "--json", d / "run, 1.json", "--stacks",
                       d / "stacks, 1.txt", "--console", d / "uart, 1.txt",
                       env={"PERF_COUNTER_BUILD": str(d / "build, 2")})
        assert proc.returncode == 0, proc.stderr
        doc = json.loads((d / "run, 1.json").read_text())
        # (the same image path: it is the guest's semihosting argv[0])
        plain = profile(d / "tasks, 1.elf", "--sample", "--cycles",
                        "--json", Path(tmp) / "plain.json")
        assert plain.returncode == 0, plain.stderr
        expected = json.loads((Path(tmp) / "plain.json").read_text())
        assert (d / "stacks, 1.txt").read_text()
    assert doc["cores"] == expected["cores"]
    assert doc["contexts"] == expected["contexts"]
    cycles = re.findall(r"^cycles: \d+ estimated cycles.*$", proc.stdout,
                        re.M)
    assert cycles and cycles == re.findall(
        r"^cycles: \d+ estimated cycles.*$", plain.stdout, re.M)


BIG_BSS = """
#include <stdio.h>
static volatile char big[40000];
static int initialized = 7;
int main(void)
{
    big[39999] = 1;
    printf("big %d %d\\n", big[39999], initialized);
    return 0;
}
"""


def test_an_image_that_needs_more_ram_gets_the_option_that_gives_it(
        ctx, board):
    """The micro:bit's 16 KiB of SRAM: .data loaded in flash (its initial
    values) and run from RAM with .bss after it, checked as a loader sees
    them; an image linked for 64 KiB is refused with the option that
    widens the RAM (not another board), and boots with it."""
    with tempfile.TemporaryDirectory() as tmp:
        src, image = Path(tmp) / "big.c", Path(tmp) / "big.elf"
        src.write_text(BIG_BSS)
        refused(profile("--board", "microbit", src, "-o", image,
                        "--ldflags=-Wl,--defsym=__ram_size=0x10000"),
                "big.elf needs 0x20000010-", "outside microbit's memory",
                "--qemu-arg=-global --qemu-arg=nrf51-soc.sram-size=0x10000")
        proc = profile("--board", "microbit", image, "--qemu-arg=-global",
                       "--qemu-arg=nrf51-soc.sram-size=0x10000")
    assert proc.returncode == 0, proc.stderr
    assert "big 1 7" in proc.stdout
    assert "linked for" not in proc.stderr


def test_the_boot_context_is_named_after_the_reset_handler(ctx, board):
    """A Cortex-M core starts at its vector table's reset handler,
    whatever the ELF's entry says (the start of .text, say, when a
    linker script has no ENTRY())."""
    with tempfile.TemporaryDirectory() as tmp:
        src, doc = Path(tmp) / "main.c", Path(tmp) / "run.json"
        src.write_text("int helper(void) { return 1; }\n"
                       "int main(void) { return helper() - 1; }\n")
        proc = profile(src, "--ldflags=-Wl,-e,helper", "--sample", "--json",
                       doc, "-o", Path(tmp) / "main.elf")
        assert proc.returncode == 0, proc.stderr
        contexts = json.loads(doc.read_text())["contexts"]
    assert [c["name"] for c in contexts] == ["_start"], contexts


def test_input_options_that_cannot_work_are_refused_in_one_line(ctx, board):
    image = ctx.firmware(board, "tests/firmware/shell.elf")
    with tempfile.TemporaryDirectory() as tmp:
        feed = Path(tmp) / "in.txt"
        feed.write_text("help\n")
        for options, why in [
                (["--input", f"9:{feed}"], f"{board.name} has UARTs 0 to "
                 f"{board.uarts - 1}, not 9"),
                (["--stop-at-eof"], "a stop at the end of input needs an "
                 "input"),
                (["--input", feed, "--no-icount"], "input in virtual time "
                 "needs -icount"),
                (["--input", feed, "--uart-pty", Path(tmp) / "pty"],
                 "UART 0 is given twice"),
                (["--uart-socket", feed], f"{feed}: exists and is not a "
                 f"socket (uart0 would be served there)"),

                (["--uart-socket", Path(tmp) / "no" / "sock"],
                 f"cannot serve uart0 on {Path(tmp) / 'no' / 'sock'}: "
                 f"No such file or directory")]:
            proc = profile(image, *options)
            refused(proc, why)
            assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        # (QEMU given the path removed the file, and left its socket)
        usage_error(profile(image, "--qmp", feed), f"--qmp {feed}: exists "
                    f"and is not a socket")
        assert feed.read_text() == "help\n"
        assert os.listdir(tmp) == ["in.txt"]


def test_a_compile_error_shows_the_compilers_messages_first(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "broken.c"
        src.write_text("int main(void) { return undeclared_name; }\n")
        proc = profile(src)
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert "broken.c" in first and "error" not in first.split(":")[0], \
        proc.stderr
    assert "'undeclared_name' undeclared" in proc.stderr, proc.stderr
    assert proc.stderr.rstrip().endswith(
        "error: compiling " + str(src) + " failed: the compiler's "
        "messages are above"), proc.stderr


def usage_error(proc, words):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert words in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


def test_a_negative_timeout_is_a_usage_error(ctx, board):
    usage_error(profile("--timeout", "-5"),
                "'-5' is not a positive number of seconds")


def test_a_bad_value_of_an_option_whose_value_is_optional(ctx, board):
    # (a word that is no value is the file to boot; a number that names
    # no file was read as one: "0: no such file")
    usage_error(profile("--sample", "0"), "argument --sample: '0' is not a "
                "period: give a number of counter clocks (1 or more)")
    usage_error(profile("--stop-at-eof", "5q"), "argument --stop-at-eof: "
                "'5q' is not a virtual time (say 10ms, 500us)")


def test_an_unknown_board_is_a_usage_error(ctx, board):
    usage_error(profile("--board", "mps3"), "invalid choice: 'mps3'")


def test_an_unknown_optimization_level_is_a_usage_error(ctx, board):
    usage_error(profile("-O", "9"), "invalid choice: '9'")


def test_a_missing_file_is_a_usage_error(ctx, board):
    usage_error(profile("no/such/file.c"), "no/such/file.c: no such file")


def test_an_input_that_is_no_file_is_a_usage_error(ctx, board, tmp_path):
    # (it was a traceback, once the image was built and checked)
    missing = tmp_path / "no-such-input"
    usage_error(profile("--input", missing), f"--input {missing}: no such "
                f"file")
    usage_error(profile("--input", f"1:{missing}"), f"--input 1:{missing}: "
                f"no such file")
    usage_error(profile("--input", tmp_path), f"--input {tmp_path}: is a "
                f"directory")


@pytest.mark.parametrize("option", ["--timeline", "--json", "--console",
                                    "--gmon", "--stacks", "--html"])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(
        ctx, board, option, tmp_path):
    # found once the outputs were written, the run's time was lost and a
    # traceback told it
    missing = tmp_path / "no-such-folder" / "out"
    usage_error(profile("--sample", option, str(missing)),
                f"{option} {missing}: no such directory {missing.parent}")
    usage_error(profile("--sample", option, str(tmp_path)),
                f"{option} {tmp_path}: is a directory")


@pytest.mark.parametrize("option", ["--gmon", "--stacks", "--json",
                                    "--timeline"])
def test_a_full_disk_loses_only_the_output_it_cannot_take(
        ctx, board, option, tmp_path):
    """An output that fails as it is written (ENOSPC: /dev/full, a
    full disk in CI) is one line naming it, exit 1; the others are
    written (the timeline by a thread of its own) and the profile
    printed, but the flat profile of a gmon.out that could not be."""
    outputs = {"--gmon": "gmon.out", "--stacks": "stacks.txt",
               "--json": "run.json", "--timeline": "timeline.json"}
    outputs[option] = "/dev/full"
    proc = subprocess.run(
        [str(PROFILE), "--sample",
         *[a for o, path in outputs.items() for a in (o, path)]],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines()[-1] == \
        "error: cannot write /dev/full: No space left on device", proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    written = {p.name for p in tmp_path.iterdir() if p.stat().st_size}
    assert written == set(outputs.values()) - {"/dev/full"}, written
    assert ("Flat profile:" in proc.stdout) == (option != "--gmon"), \
        proc.stdout
    # written through, never replaced by a file (as root, /dev is ours)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_the_other_scripts_refuse_bad_arguments_at_once(ctx, board,
                                                       tmp_path):
    """scripts/bench checks its files and folders before its first row
    (a missing --rtos image failed a minute in, after the rows before
    it); scripts/test says pytest ran nothing rather than '0 passed, 0
    failed' when pytest refused its arguments."""
    def run(script, *args):
        return subprocess.run([str(REPO / "scripts" / script), *args],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=300)
    missing = tmp_path / "none"
    for args, why in [(["--rtos", missing], f"argument --rtos: {missing}: "
                       f"no such file"),
                      (["--embench", missing], f"argument --embench: "
                       f"{missing}: no such directory"),
                      (["--runs", "0"], "argument --runs: '0' is not a "
                       "number of runs (1 or more)")]:
        usage_error(run("bench", *map(str, args)), why)
    proc = run("test", "--no-such-option")
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        "error: pytest ran no test: its arguments were refused (exit 4; "
        "its message above)"), proc.stderr
    assert "passed" not in proc.stdout, proc.stdout


def test_a_bad_size_is_a_usage_error(ctx, board):
    usage_error(profile("--stack-size", "lots", REPO / "README.md"),
                "'lots' is not a size")


def test_a_heap_smaller_than_asked_is_refused(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "main.c"
        src.write_text("int main(void) { return 0; }\n")
        assert profile("--heap-size", "2M", src).returncode == 0
        refused(profile("--heap-size", "4M", src), "the heap would have",
                "less than the 4194304 bytes of --heap-size")


COUNTER_AT_MY_BASE = (
    '#include "altera_avalon_performance_counter.h"\n'
    "int main(void) {\n"
    "    void *p = (void *)MY_BASE;\n"
    "    PERF_RESET(p); PERF_START_MEASURING(p);\n"
    "    PERF_BEGIN(p, 2); PERF_END(p, 2);\n"
    "    return (int)perf_get_num_starts(p, 2);\n"
    "}\n")


def counter_at(src, base, board="mps2-an385", sections=""):
    return profile("--board", board, "--add-counter", base + sections,
                   "-D", f"MY_BASE={base}", src)


def test_a_counter_at_a_base_of_ones_choosing(ctx, board):
    """In the board's window, or anywhere else the CPU sees nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "main.c"
        src.write_text(COUNTER_AT_MY_BASE)
        in_window = counter_at(src, "0x40100000", sections=":2")
        outside = counter_at(src, "0x50000000")
        over_a_device = counter_at(src, "0x40004000")
    # the program's exit code is section 2's count
    assert in_window.returncode == 1, in_window.stderr
    assert outside.returncode == 1, outside.stderr
    assert "core 0x50000000" in outside.stderr, outside.stderr
    assert over_a_device.returncode == 1, over_a_device.stderr
    assert ("property 'base' (0x40004000) overlaps 'uart' at "
            "0x40004000; this board has room for it at 0x40030000-"
            "0x401fffff or wherever nothing is mapped"
            in over_a_device.stderr), over_a_device.stderr
    assert "QEMU ended before the guest ran an instruction" in \
        over_a_device.stderr, over_a_device.stderr


# What the typical Nios II base is on each board
NIOS2_BASE_THERE = {
    "mps2-an385": "'mps.blockram' at 0x1000000",
    "arm-virt": "'virt.flash0' at 0x0",
    "raspi1ap": "'ram' at 0x0",
    "riscv32-virt": None,       # nothing: the counter goes there
}


def test_the_typical_nios2_base_works_where_nothing_is_mapped(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "main.c"
        src.write_text(COUNTER_AT_MY_BASE)
        runs = {b: counter_at(src, "0x1001000", b) for b in NIOS2_BASE_THERE}
    for name, there in NIOS2_BASE_THERE.items():
        proc = runs[name]
        assert proc.returncode == 1, (name, proc.stderr)
        if there:
            assert f"overlaps {there}" in proc.stderr, (name, proc.stderr)
        else:
            assert "core 0x01001000" in proc.stderr, (name, proc.stderr)


TWO_FILES = {
    "a.c": '#include <stdio.h>\nint twice(int);\n'
           'int main(void) { printf("x=%d\\n", twice(X)); return 0; }\n',
    "b.c": "int twice(int v) { return 2 * v; }\n",
}


def test_options_and_files_go_in_any_order(ctx, board):
    """As a compiler takes them: files before, between and after
    options; --sample's optional value not taking a file for one."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in TWO_FILES.items():
            (Path(tmp) / name).write_text(text)
        a, b = (str(Path(tmp) / n) for n in TWO_FILES)
        mixed = profile(a, "-D", "X=3", b)
        # (-o: the image --sample keeps goes in tmp, not the cwd)
        sampled = profile("--sample", a, "-D", "X=4", b, "-o",
                          Path(tmp) / "a.elf")
        period = profile("--sample", "500", "-DX=5", a, b, "-o",
                         Path(tmp) / "a.elf")
    assert mixed.returncode == 0 and "x=6\n" in mixed.stdout, \
        mixed.stdout + mixed.stderr
    assert sampled.returncode == 0 and "x=8\n" in sampled.stdout, \
        sampled.stderr
    assert "a sample every 1000 clocks" in sampled.stderr, sampled.stderr
    assert period.returncode == 0 and "x=10\n" in period.stdout, \
        period.stderr
    assert "a sample every 500 clocks" in period.stderr, period.stderr


def test_an_unknown_instance_name_gets_its_mapping(ctx, board):
    """A program written for a Nios II system whose counter instance
    has another name: gcc's 'undeclared', then what to pass."""
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "main.c"
        main.write_text('#include "altera_avalon_performance_counter.h"\n'
                        "int main(void) { PERF_RESET(MY_PC_BASE); "
                        "return 0; }\n")
        proc = profile(main)
    refused(proc, "undeclared",
            "-D MY_PC_BASE=PERFORMANCE_COUNTER_BASE")


VANISHING_LOOP = """
#include "altera_avalon_performance_counter.h"
#include "system.h"
int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    int sum = 0;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 1);
    for (int i = 0; i < 1000; i++) {
        sum += i;               /* never used: gone at -O2 */
    }
    PERF_END(p, 1);
    PERF_STOP_MEASURING(p);
    return 0;
}
"""


def test_a_section_optimized_away_is_pointed_out(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "main.c"
        main.write_text(VANISHING_LOOP)
        gone = profile(main)
        kept = profile("-O", "0", main)
    assert gone.returncode == 0, gone.stderr
    assert "may have removed its code" in gone.stderr, gone.stderr
    assert "at -O2" in gone.stderr, gone.stderr
    assert kept.returncode == 0, kept.stderr
    assert "may have removed" not in kept.stderr, kept.stderr
