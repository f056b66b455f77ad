#!/bin/sh
# Generate ./configure and Makefile.in from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
command -v autoreconf >/dev/null 2>&1 || {
  echo "autogen.sh: autoreconf not found: install the Debian packages 'autoconf automake' (or run scripts/install-deps)" >&2
  exit 1; }
command -v automake >/dev/null 2>&1 || {
  echo "autogen.sh: automake not found: install the Debian package 'automake' (or run scripts/install-deps)" >&2
  exit 1; }
exec autoreconf --install --force
