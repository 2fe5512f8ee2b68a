"""Generated from proto/kassen/v1 by tools/genproto.py; do not edit."""
