from kassen.cli import main

raise SystemExit(main())
