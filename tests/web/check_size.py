#!/usr/bin/python3
"""check_size.py PAGE_DIR — the page's static folder within issue 38's size budget.

Sums the folder's files as they lie (≤ 40 MB) and as a static host sends them gzip-compressed (each file on its own,
gzip level 6, ≤ 25 MB), prints each file's two sizes, and exits 1 naming the budget it exceeds. Standard library.
"""
import gzip
import os
import sys

MB = 1_000_000
BUDGET_BYTES = 40 * MB
BUDGET_GZIP_BYTES = 25 * MB


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_size.py PAGE_DIR")
    folder = sys.argv[1]
    total = total_gzip = 0
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as file:
                data = file.read()
            packed = len(gzip.compress(data, compresslevel=6))
            total, total_gzip = total + len(data), total_gzip + packed
            print(f"check_size: {os.path.relpath(path, folder):24s} {len(data) / MB:7.2f} MB   gzip {packed / MB:7.2f} MB")
    print(f"check_size: the page {total / MB:.2f} MB (budget {BUDGET_BYTES / MB:.0f}), "
          f"gzip {total_gzip / MB:.2f} MB (budget {BUDGET_GZIP_BYTES / MB:.0f})")
    over = [f"{what} {size / MB:.2f} MB is over its {budget / MB:.0f} MB budget"
            for what, size, budget in (("the folder", total, BUDGET_BYTES), ("gzip", total_gzip, BUDGET_GZIP_BYTES))
            if size > budget]
    for problem in over:
        print(f"check_size: {problem}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
