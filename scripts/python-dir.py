#!/usr/bin/env python3
"""Print where `make install` puts the kwgen Python module for PREFIX:
the directory this python3 imports from for that prefix.

  Debian's python3: /usr/lib/python3/dist-packages for PREFIX=/usr,
                    PREFIX/lib/python3.X/dist-packages otherwise
                    (/usr/local/lib/python3.X/dist-packages is on its path)
  any other python3: its purelib for PREFIX (PREFIX/lib/python3.X/site-packages)
"""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") if len(sys.argv) > 1 and sys.argv[1] != "/" else "/usr/local"
ver = "python%d.%d" % sys.version_info[:2]
debian = any(p.endswith("dist-packages") for p in sys.path)
if debian:
    print("/usr/lib/python3/dist-packages" if prefix == "/usr" else "%s/lib/%s/dist-packages" % (prefix, ver))
else:
    print(sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix}))
