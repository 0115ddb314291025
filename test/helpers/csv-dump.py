#!/usr/bin/env python3
"""Parses a CSV file with Python's csv module in strict mode and prints the records as JSON.

An independent reader for RosterDesk's CSV export tests. The file must be UTF-8; a byte order mark is
reported, not hidden, so a test can require it.

Usage: csv-dump.py FILE.csv  ->  {"bom": true|false, "records": [[field, ...], ...]}
"""
import csv
import io
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: csv-dump.py FILE.csv\n")
        return 2
    with open(sys.argv[1], "rb") as handle:
        data = handle.read()
    bom = data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    # newline="": the csv module sees line breaks as they are, inside quoted fields too.
    records = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    json.dump({"bom": bom, "records": records}, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
