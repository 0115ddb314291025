#!/usr/bin/env python3
"""Dumps an .xlsx file as JSON using openpyxl.

An independent reader for RosterDesk's export tests: openpyxl is neither exceljs nor anything the project
wrote, so a file it reads the way we expect is a file we did not merely round-trip through our own library.

Usage: xlsx-dump.py FILE.xlsx  ->  JSON on stdout
"""
import datetime
import json
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

import openpyxl


def cell_json(cell):
    value = cell.value
    if isinstance(value, datetime.datetime):
        # Round to the millisecond: serials are floating point days, so a microsecond either way is noise.
        micro = round(value.microsecond / 1000) * 1000
        if micro == 1000000:
            value = value.replace(microsecond=0) + datetime.timedelta(seconds=1)
        else:
            value = value.replace(microsecond=micro)
        value = value.isoformat(timespec="milliseconds")
    elif isinstance(value, (datetime.date, datetime.time)):
        value = value.isoformat()
    elif isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    return {
        "v": value,
        "t": cell.data_type,
        "isDate": bool(cell.is_date),
        "fmt": cell.number_format,
        "bold": bool(cell.font.b) if cell.font is not None else False,
    }


def none_or_int(value):
    return None if value is None else int(value)


def footer_json(footer):
    """The footer's three parts as openpyxl parses them (its codes, e.g. &P, kept as written)."""
    parts = {}
    for side in ("left", "center", "right"):
        text = getattr(footer, side).text
        parts[side] = text
    return parts


def sheet_json(ws):
    rows = []
    for row in ws.iter_rows():
        rows.append([None if c.value is None else cell_json(c) for c in row])
    widths = {}
    for key, dim in ws.column_dimensions.items():
        if dim.width:
            widths[key] = dim.width
    props = ws.sheet_properties.pageSetUpPr
    return {
        "name": ws.title,
        "print": {
            "orientation": ws.page_setup.orientation,
            "fitToPage": bool(props.fitToPage) if props is not None else False,
            "fitToWidth": none_or_int(ws.page_setup.fitToWidth),
            "fitToHeight": none_or_int(ws.page_setup.fitToHeight),
            "titleRows": ws.print_title_rows,
            "oddFooter": footer_json(ws.oddFooter),
        },
        "maxRow": ws.max_row,
        "maxColumn": ws.max_column,
        "freezePanes": ws.freeze_panes,
        "autoFilter": ws.auto_filter.ref,
        "columnWidths": widths,
        "rows": rows,
    }


MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def defined_names(path):
    """Read from workbook.xml directly: openpyxl keeps sheet-local built-in names such as _FilterDatabase to itself."""
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    names = []
    for element in root.iter(MAIN_NS + "definedName"):
        local = element.get("localSheetId")
        names.append(
            {"name": element.get("name"), "localSheetId": None if local is None else int(local), "value": element.text}
        )
    return names


REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
TYPES_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
CUSTOM_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}"
VT_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"
CUSTOM_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"


def custom_properties(path):
    """The custom file properties as Office finds them: the package relationship of the custom-properties type,
    the part it targets with its declared content type, and each property's name and text; None when there is no
    such relationship (openpyxl 3.0 does not read them)."""
    with zipfile.ZipFile(path) as archive:
        rels = ElementTree.fromstring(archive.read("_rels/.rels"))
        targets = [r.get("Target") for r in rels.iter(REL_NS + "Relationship") if r.get("Type") == CUSTOM_REL]
        if not targets:
            return None
        part = "/" + targets[0].lstrip("/")
        types = ElementTree.fromstring(archive.read("[Content_Types].xml"))
        content_type = next(
            (o.get("ContentType") for o in types.iter(TYPES_NS + "Override") if o.get("PartName") == part), None
        )
        root = ElementTree.fromstring(archive.read(part.lstrip("/")))
    properties = []
    for prop in root.iter(CUSTOM_NS + "property"):
        value = prop.find(VT_NS + "lpwstr")
        properties.append(
            {"name": prop.get("name"), "pid": int(prop.get("pid")), "fmtid": prop.get("fmtid"),
             "value": None if value is None else value.text}
        )
    return {"part": part, "contentType": content_type, "relationships": len(targets), "properties": properties}


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: xlsx-dump.py FILE.xlsx\n")
        return 2
    wb = openpyxl.load_workbook(sys.argv[1])
    json.dump(
        {
            "openpyxl": openpyxl.__version__,
            "sheetNames": wb.sheetnames,
            "definedNames": defined_names(sys.argv[1]),
            "customProperties": custom_properties(sys.argv[1]),
            "sheets": [sheet_json(ws) for ws in wb.worksheets],
        },
        sys.stdout,
        ensure_ascii=False,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
