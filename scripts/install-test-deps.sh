#!/usr/bin/env bash
# Installs the system packages the tests need on Debian/Ubuntu: Chromium (the browser tests drive it through
# playwright-core; never `npx playwright install`), Python's openpyxl (an independent reader for exported .xlsx),
# fonts for the scripts the sandbox's names use beyond DejaVu's (CJK, Hangul, kana; Devanagari), so the
# browser tests' screenshots show names as a clerk's desktop would rather than empty boxes, and LibreOffice Calc
# (headless) and poppler-utils, with which test/e2e/print-output.test.ts prints exports and the Print page to PDF
# and reads the pages back.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || need+=(python3-openpyxl)
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || need+=(fonts-wqy-microhei)
dpkg -s fonts-lohit-deva >/dev/null 2>&1 || need+=(fonts-lohit-deva)
[ -x /usr/bin/soffice ] || need+=(libreoffice-calc-nogui)
[ -x /usr/bin/pdftoppm ] || need+=(poppler-utils)
if [ ${#need[@]} -eq 0 ]; then
  echo "Test dependencies present: chromium, python3-openpyxl, fonts, LibreOffice Calc, poppler-utils"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "Installing: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
[ -x /usr/bin/chromium ] || { echo "chromium did not install" >&2; exit 1; }
/usr/bin/python3 -c 'import openpyxl' || { echo "python3-openpyxl did not install" >&2; exit 1; }
[ -x /usr/bin/soffice ] || { echo "libreoffice-calc-nogui did not install" >&2; exit 1; }
[ -x /usr/bin/pdftoppm ] || { echo "poppler-utils did not install" >&2; exit 1; }
