from daycare_gui.cli import main

raise SystemExit(main())
