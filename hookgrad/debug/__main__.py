"""``python -m hookgrad.debug RUN.json [-o report.html]``: render a recorded run as HTML."""
import argparse
import os
import sys

from .report import render_report


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m hookgrad.debug',
        description='Render a recorded run (debug.save_run, or StatsRecorder.to_json) into a '
                    'self-contained HTML page.')
    parser.add_argument('run', help='the run file (.json)')
    parser.add_argument('-o', '--output', help='the HTML file (default: RUN with .html)')
    parser.add_argument('--title', help='the page title (default: the run\'s)')
    args = parser.parse_args(argv)
    out = args.output or os.path.splitext(args.run)[0] + '.html'
    try:
        render_report(args.run, out, title=args.title)
    except (OSError, ValueError) as e:
        parser.exit(2, f"python -m hookgrad.debug: {e}\n")
    print(out)
    return out


if __name__ == '__main__':
    sys.exit(0 if main() else 1)
