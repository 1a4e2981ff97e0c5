#!/usr/bin/env bash
# A project's own compiler launcher: notes the command it runs, then runs it.
echo "$*" >> launched.log
exec "$@"
