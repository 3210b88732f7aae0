"""``hookgrad run``: a target that cannot run is one line on stderr and Python's exit status."""
import os
import subprocess
import sys

import pytest

import hookgrad

ROOT = os.path.dirname(os.path.dirname(hookgrad.__file__))


def hookgrad_run(*args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, '-m', 'hookgrad', 'run', *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120)


def one_line(out):
    assert out.stdout == ''
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_a_missing_script_is_one_line_and_status_2(tmp_path):
    out = hookgrad_run('missing.py', '--epochs', '2', cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out) == ("hookgrad run: can't open file 'missing.py': [Errno 2] No such file "
                             "or directory")


def test_a_missing_script_on_several_processes_is_reported_before_launching(tmp_path):
    out = hookgrad_run('-n', '2', 'missing.py', cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out).startswith("hookgrad run: can't open file 'missing.py'")


@pytest.mark.skipif(not hasattr(os, 'geteuid') or os.geteuid() == 0,
                    reason="the superuser reads every file")
def test_an_unreadable_script_is_one_line_and_status_2(tmp_path):
    script = tmp_path / 'locked.py'
    script.write_text("print('ran')\n")
    script.chmod(0)
    out = hookgrad_run(str(script), cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out) == (f"hookgrad run: can't open file {str(script)!r}: [Errno 13] "
                             f"Permission denied")


def test_a_script_below_a_file_names_the_errno(tmp_path):
    (tmp_path / 'data.txt').write_text('')
    out = hookgrad_run('data.txt/train.py', cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out) == ("hookgrad run: can't open file 'data.txt/train.py': [Errno 20] Not a "
                             "directory")


def test_a_directory_runs_its_main_or_is_one_line_and_status_1(tmp_path):
    folder = tmp_path / 'app'
    folder.mkdir()
    out = hookgrad_run('app', cwd=tmp_path)
    assert out.returncode == 1
    assert one_line(out) == "hookgrad run: can't find '__main__' module in 'app'"
    (folder / '__main__.py').write_text("import mindspore\nprint(mindspore.__name__)\n")
    out = hookgrad_run('app', cwd=tmp_path)
    assert (out.returncode, out.stdout.strip()) == (0, 'hookgrad'), out.stderr


def test_a_missing_module_is_one_line_and_status_1(tmp_path):
    out = hookgrad_run('-m', 'no_such_module_here', cwd=tmp_path)
    assert out.returncode == 1
    assert one_line(out) == "hookgrad run: No module named no_such_module_here"
    out = hookgrad_run('-m', 'no_such_package_here.train', cwd=tmp_path)
    assert one_line(out) == "hookgrad run: No module named no_such_package_here.train"
    out = hookgrad_run('-m', 'hookgrad.ops', cwd=tmp_path)
    assert out.returncode == 1
    assert one_line(out) == ("hookgrad run: No module named hookgrad.ops.__main__; "
                             "'hookgrad.ops' is a package and cannot be directly executed")


def test_a_mindspore_module_is_found_through_the_alias(tmp_path):
    out = hookgrad_run('-m', 'mindspore.no_such_module', cwd=tmp_path)
    assert one_line(out) == "hookgrad run: No module named mindspore.no_such_module"


def test_no_target_and_a_bad_process_count_are_one_line_and_status_2(tmp_path):
    out = hookgrad_run(cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out).startswith("hookgrad run: give a script, or -m and a module")
    out = hookgrad_run('-n', '0', 'train.py', cwd=tmp_path)
    assert out.returncode == 2
    assert one_line(out) == "hookgrad run: -n must be at least 1, got 0"


def test_an_error_inside_the_script_keeps_its_traceback(tmp_path):
    (tmp_path / 'train.py').write_text("import no_such_module_inside\n")
    out = hookgrad_run('train.py', cwd=tmp_path)
    assert out.returncode == 1
    assert 'Traceback' in out.stderr and "No module named 'no_such_module_inside'" in out.stderr


def test_words_after_the_module_are_the_modules_own_options(tmp_path):
    (tmp_path / 'show_argv.py').write_text("import sys\nprint(sys.argv[1:])\n")
    out = hookgrad_run('-m', 'show_argv', '-q', '-p', 'x', 'file.py', cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['-q', '-p', 'x', 'file.py']"
    out = hookgrad_run('-n', '1', '-mshow_argv', '-x', cwd=tmp_path)
    assert out.stdout.strip() == "['-x']", out.stderr
