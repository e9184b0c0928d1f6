# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_hedge_global_optspecs
    string join \n h/help V/version
end

function __fish_hedge_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_hedge_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_hedge_using_subcommand
    set -l cmd (__fish_hedge_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c hedge -n "__fish_hedge_needs_command" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_needs_command" -s V -l version -d 'Print version'
complete -c hedge -n "__fish_hedge_needs_command" -a "generate" -d 'Make one maze and write it to a file (the extension picks the format)'
complete -c hedge -n "__fish_hedge_needs_command" -a "shapes" -d 'List the built-in shapes (for `generate --shape NAME`)'
complete -c hedge -n "__fish_hedge_needs_command" -a "batch" -d 'Make a puzzle book (one PDF, per-page SVGs, a manifest) from a book file'
complete -c hedge -n "__fish_hedge_needs_command" -a "regenerate" -d 'Print one puzzle of a book again, from the book\'s manifest.json: the same maze on the same page, its answer key on the next'
complete -c hedge -n "__fish_hedge_needs_command" -a "completions" -d 'Print the shell completion script for bash, zsh or fish'
complete -c hedge -n "__fish_hedge_needs_command" -a "man" -d 'Print the manual page, hedge(1), in roff (`hedge man | man -l -`)'
complete -c hedge -n "__fish_hedge_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l design -d 'A design file (TOML, as the editor saves it); flags given too override its values' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l style -d 'Maze style: walls (cells and walls, every topology) or tiles (hex tiles, open or wall)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l order -d 'Tile Mazer order for --style tiles: 0 (one-tile corridors) or 1 (corridors never side by side)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l topology -d 'Grid topology: rect, hex, polar or tri' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l width -d 'Cells across (for polar: the number of rings, the centre cell being the first)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l height -d 'Cells down (defaults to the width; ignored for polar)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l algorithm -d 'Carving algorithm (docs/carvers.md describes each)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l growing-tree -d 'Growing-tree policy: newest, random, oldest or mixed:P (P = share of newest picks)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l braid -d 'Share of dead ends to remove, 0 (perfect maze) to 1' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l weave -d 'Density of weave crossings, 0 to 1 (rect and hex grids)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l inset -d 'Corridor inset, 0 to 0.3 of the cell on each side (rect and hex; default 0.15 for weave mazes, so a crossing reads as a bridge, and 0 for the rest)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l key-under -d 'How the answer key shows the way under a weave bridge: hidden (the line goes under the bridge) or dashed (a dashed line across it)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l seed -d 'Random seed (a random one is drawn and reported when omitted)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l entrance -d 'Entrance placement: auto, top-bottom, left-right, or a cell ROW,COL (then give --exit)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l exit -d 'Exit cell ROW,COL, with an explicit --entrance cell' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l starts -d 'A "Which path?" puzzle: N entrances (2 to 4) lettered A, B, C, D, only one of them joined to the finish (1, the default, is an ordinary maze). Not with braid, weave, tiles or a chosen --entrance' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l collect -d 'A "collect the items" puzzle: N pictures to pick up on the way, spread along the path in order (the key numbers them), and as many decoys at the far ends of dead ends. Without a number, the --difficulty preset\'s count (ages 3-5: 3), else 3. Not with braid, weave or --starts' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l items -d 'The items\' pictures, used in turn: built-in picture names (apple, star, carrot, ...) or SVG, PNG or JPEG files of your own; apple by default' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l reveal -d 'A picture revealed by the path: the solution is built through the picture\'s cells (a built-in shape, a picture file, or text:WORDS), fitted to the grid as --shape would fit it, and the answer key shades it; the puzzle page gives no hint. Not with braid, weave, --starts or a chosen --entrance' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -s o -l output -d 'Output file, its format by extension: .pdf (the maze, then its answer key), .svg or .png (the key beside as NAME-key.svg/.png; see --key), .json (the maze graph) or .txt (ASCII, rect only). A symbolic link is written through (its target gets the file). Without it, rect mazes are drawn on standard output' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l save-design -d 'Also write the design the maze was made from (TOML, as the editor saves it): the seed, size and carver a --difficulty search found, and the page. `--design FILE.toml` makes the same maze again (so does `--design maze.json`)' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l paper -d 'Paper: a4, letter, 8.5x11, 8x10, 6x9, or a size like 150x200mm or 5x7in' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l orientation -d 'portrait, landscape or auto (the default: the page turns when the maze gets wider corridors that way)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l margin -d 'Margin on the top, bottom and outside edges, in mm' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l gutter -d 'Extra margin on the inside (binding) edge, in mm' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l title -d 'A title line at the top of the page' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l page-number -d 'Print this page number on the maze page (the answer key gets the next one)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l wall-mm -d 'Wall thickness in mm' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l corridor-mm -d 'Narrowest corridor in mm accepted without a warning (default 3, or the --difficulty preset\'s corridor width)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l font -d 'The typeface of the page\'s text: sans (Helvetica), serif (Times) or mono (Courier)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l markers -d 'How big START and FINISH print: normal (9 pt labels, 6 mm arrows), large (12 pt, 8 mm) or huge (16 pt, 10 mm). --difficulty sets it (ages-3-5 huge, ages-6-8 large)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l theme -d 'A theme for a child\'s page: a picture at the entrance and one at the exit instead of START and FINISH, and an instruction line at the top: bee, bird, car, dog, fish, mouse, rabbit or rocket ("Help the bee find the flower")' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l start-picture -d 'Your own picture at the entrance: an SVG file (solid colours), drawn 16 to 22 mm across with the markers; with --theme, it replaces the theme\'s' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l finish-picture -d 'Your own picture at the exit (see --start-picture)' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l instruction -d 'The instruction line at the top of the page (a theme\'s own by default)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l lang -d 'The language of the page\'s own words (START, FINISH, "Name:", a theme\'s line): en, de, fr, es, it, pt, nl or pl' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l strings -d 'A strings file (TOML, key = "text") replacing any of the page\'s words; see docs/lang.md for the keys' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l dpi -d 'PNG resolution in dots per inch (default 300)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l key -d 'Where the answer key goes: second-page (default: page 2 of a PDF; beside an SVG or PNG as NAME-key.svg/.png), separate (NAME-key.EXT in every format, the PDF holding the puzzle only) or none' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l svg -d 'What an .svg holds: print (the page as printed; the default), plotter (the walls as few continuous strokes, no fills or text, for pen plotters and laser cutters) or centreline (the corridors\' centre lines, for engraving or CNC routing)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l shape -d 'A built-in shape (see `hedge shapes`) or a picture file (PNG, JPEG, GIF, BMP, WebP, SVG); the maze fills the shape. A built-in name wins over a file of the same name (write ./NAME for the file)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l text -d 'Words the maze takes the shape of, set in a bundled font (\\n or a line break starts a new line); the letters are joined into one maze by corridors' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l text-font -d 'The font of --text: rounded (Comic Neue Bold, the default), sans, serif, mono (Liberation Bold) or dejavu (DejaVu Sans Bold, the most characters)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l coverage -d 'Share of a cell\'s area the shape must cover for the cell to be in the maze (0 to 1)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l threshold -d 'How different from the background a pixel must be to count as shape (0-255; colour distance, or opacity for pictures with transparency); automatic by default' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l islands -d 'Parts of the shape not joined to the largest: keep-largest (drop them) or bridge (join them with corridors). By default the largest is kept, but the letters of a text or of an SVG that draws text are joined' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l outline -d 'A shaped maze\'s outer wall: shape (the silhouette\'s own smooth outline, cells clipped to it; the default) or cells (the cells\' outline)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l difficulty -d 'A reader preset: easy, medium, hard, expert, or ages-3-5, ages-6-8, ages-9-12, adult. Sets the carver, braid, targets and (unless --width is given) the cell count that keeps the preset\'s corridor width on the page; other flags override it' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-score -d 'Target range for the difficulty score: A..B, A.. or ..B' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-ratio -d 'Target range for the solution ratio (solution cells / cells, 0 to 1)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-branching -d 'Target range for the branching factor along the solution (side branches per path cell)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-dead-ends -d 'Target range for the number of dead ends' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-depth -d 'Target range for the deepest dead end (steps from the solution path)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l target-decisions -d 'Target range for the decision points on the solution (where a wrong turn is possible)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l budget -d 'How long the search for a maze meeting the targets may go on: N candidates (the same result on every machine) or Ns seconds (e.g. 2s). Default: 2000 candidates, fewer past 40,000 cells (2000 x 40,000 / cells: 320 on a 500x500 grid, at least 64)' -r
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l no-weave-legend -d 'Leave out the "Passages can go under bridges" line on weave puzzle pages'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l bleed -d 'Add a 0.125 in bleed around the page'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l name-line -d 'Print a "Name: ____" line under the title'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l symbols -d 'A big green dot at the start and a chequered flag at the finish instead of the words START and FINISH (for children who cannot read yet)'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l stars -d 'The maze\'s level as 1 to 5 stars beside the title (the preset\'s band it stands in: ages-3-5 one star, expert five)'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l strict -d 'Make the preflight\'s warnings errors: when a check fails, nothing is written'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l invert -d 'Swap the shape and its background'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l turn -d 'Turn the shape a quarter turn anticlockwise (a wide shape stands up on a portrait page)'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l force -d 'Cut a picture that looks like a photo (its background is not plain) anyway'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l vary-endpoints -d 'Let the search try other entrance and exit pairs on the outline'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l vary-carver -d 'Let the search try the other carvers that run on the topology'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -l no-search -d 'Make the design\'s maze as it is (its seed) and report it against the targets, without searching'
complete -c hedge -n "__fish_hedge_using_subcommand generate" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand shapes" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand batch" -s o -l output -d 'The output folder: book.pdf (and answers.pdf with answers = "separate"), manifest.json and pages/page-NNN.svg go there' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand batch" -l threads -d 'Worker threads (default: one per core). The output is the same whatever the number' -r
complete -c hedge -n "__fish_hedge_using_subcommand batch" -l strict -d 'Make the preflight\'s warnings errors: when a check fails, nothing is written'
complete -c hedge -n "__fish_hedge_using_subcommand batch" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand regenerate" -l puzzle -d 'The puzzle\'s number, as printed in the book (from 1)' -r
complete -c hedge -n "__fish_hedge_using_subcommand regenerate" -s o -l output -d 'The file to write: .pdf (the puzzle, then its key), .svg or .png (the key beside it as NAME-key.svg/.png)' -r -F
complete -c hedge -n "__fish_hedge_using_subcommand regenerate" -l dpi -d 'PNG resolution in dots per inch (default 300)' -r
complete -c hedge -n "__fish_hedge_using_subcommand regenerate" -l strict -d 'Make the preflight\'s warnings errors: when a check fails, nothing is written'
complete -c hedge -n "__fish_hedge_using_subcommand regenerate" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand completions" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand man" -s h -l help -d 'Print help'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "generate" -d 'Make one maze and write it to a file (the extension picks the format)'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "shapes" -d 'List the built-in shapes (for `generate --shape NAME`)'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "batch" -d 'Make a puzzle book (one PDF, per-page SVGs, a manifest) from a book file'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "regenerate" -d 'Print one puzzle of a book again, from the book\'s manifest.json: the same maze on the same page, its answer key on the next'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "completions" -d 'Print the shell completion script for bash, zsh or fish'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "man" -d 'Print the manual page, hedge(1), in roff (`hedge man | man -l -`)'
complete -c hedge -n "__fish_hedge_using_subcommand help; and not __fish_seen_subcommand_from generate shapes batch regenerate completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
