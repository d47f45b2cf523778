"""Reports of replay results: rich text and HTML for people, JSON and JUnit XML for machines."""

from tlaconf.report.html import write_html
from tlaconf.report.jsonout import json_report, summary
from tlaconf.report.junit import junit_xml, write_junit
from tlaconf.report.text import ProgressDisplay, make_console, render_failure, render_report

__all__ = [
    "ProgressDisplay",
    "json_report",
    "junit_xml",
    "make_console",
    "render_failure",
    "render_report",
    "summary",
    "write_html",
    "write_junit",
]
