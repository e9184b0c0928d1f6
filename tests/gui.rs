//! The editor, driven like a user drives it (egui_kittest: AccessKit roles and labels, no window,
//! no GPU). Assertions are on the app's state.

use std::time::Duration;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use hedge::app::HedgeApp;
use hedge::topology::TopologyKind;

fn editor() -> Harness<'static, HedgeApp> {
    let mut h = Harness::builder()
        .with_size([1100.0, 750.0])
        .build_eframe(|cc| HedgeApp::new(cc));
    settle(&mut h);
    h
}

/// Runs frames until the background job (if any) is done, then until the UI is idle.
fn settle(h: &mut Harness<'_, HedgeApp>) {
    for _ in 0..3000 {
        h.step();
        if !h.state().busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!h.state().busy(), "the worker did not finish in time");
    h.run();
}

fn status(h: &Harness<'_, HedgeApp>) -> String {
    hedge::app::ui::status_text(h.state())
}

#[test]
fn opens_with_a_maze_and_its_measurements() {
    let h = editor();
    let g = h.state().generated().expect("a maze on start");
    assert_eq!(g.metrics.cells, 400);
    assert!(status(&h).starts_with("400 cells"), "{}", status(&h));
    h.get_by_label("Maze preview");
    h.get_by_label("Answer key");
}

#[test]
fn braid_slider_undo_and_redo() {
    let mut h = editor();
    let before = h.state().design.clone();
    let dead_before = h.state().generated().unwrap().metrics.dead_ends;
    h.get_by_role_and_label(Role::Slider, "Braid")
        .set_value_accesskit(1.0);
    settle(&mut h);
    assert_eq!(h.state().design.braid, 1.0);
    let dead_after = h.state().generated().unwrap().metrics.dead_ends;
    assert!(dead_after < dead_before, "{dead_after} < {dead_before}");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().design, before);
    assert_eq!(
        h.state().generated().unwrap().metrics.dead_ends,
        dead_before
    );

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().design.braid, 1.0);
}

#[test]
fn hex_disables_weave_and_polar_has_rings() {
    let mut h = editor();
    let weave = |h: &Harness<'_, HedgeApp>| {
        h.get_by_role_and_label(Role::Slider, "Weave")
            .accesskit_node()
            .is_disabled()
    };
    assert!(!weave(&h));
    h.get_by_label("Topology").click();
    h.run();
    h.get_by_label("hex").click();
    settle(&mut h);
    assert_eq!(h.state().design.topology, TopologyKind::Hex);
    assert!(weave(&h), "weave is for rect grids only");
    assert!(h.state().generated().is_some(), "{}", status(&h));

    h.get_by_label("Topology").click();
    h.run();
    h.get_by_label("polar").click();
    settle(&mut h);
    assert_eq!(h.state().design.topology, TopologyKind::Polar);
    h.get_by_role_and_label(Role::Slider, "Rings");
    assert!(h.query_by_role_and_label(Role::Slider, "Height").is_none());
    assert!(h.state().generated().is_some(), "{}", status(&h));
}

#[test]
fn algorithm_menu_lists_the_registry() {
    let mut h = editor();
    h.get_by_label("Algorithm").click();
    h.run();
    for c in hedge::carve::CARVERS {
        assert!(h.query_all_by_label(c.name).count() >= 1, "{}", c.name);
    }
    // (an item near the top: a long popup may scroll its last items out of reach)
    let last = hedge::carve::CARVERS
        .iter()
        .find(|c| c.name == "wilson")
        .unwrap();
    h.query_all_by_label(last.name).last().unwrap().click();
    settle(&mut h);
    assert_eq!(h.state().design.algorithm, last.algorithm);
    assert!(h.state().generated().is_some(), "{}", status(&h));
}

#[test]
fn new_seed_changes_the_seed_and_undo_restores_it() {
    let mut h = editor();
    let seed = h.state().design.seed;
    h.get_by_label("New seed").click();
    settle(&mut h);
    assert_ne!(h.state().design.seed, seed);
    assert_eq!(
        h.state().generated().unwrap().seed,
        h.state().design.seed.unwrap()
    );
    h.get_by_label("Undo").click();
    settle(&mut h);
    assert_eq!(h.state().design.seed, seed);
}

#[test]
fn weave_slider_makes_crossings() {
    let mut h = editor();
    h.get_by_role_and_label(Role::Slider, "Weave")
        .set_value_accesskit(0.5);
    settle(&mut h);
    assert_eq!(h.state().error(), None);
    let g = h.state().generated().unwrap();
    assert_eq!(g.algorithm_used, "weave");
    assert!(g.metrics.crossings > 0, "no crossings at weave 0.5");
    assert!(status(&h).contains("crossings"), "{}", status(&h));
}

#[test]
fn big_mazes_are_made_in_the_background() {
    let mut h = editor();
    h.get_by_role_and_label(Role::Slider, "Width")
        .set_value_accesskit(200.0);
    h.step();
    h.get_by_role_and_label(Role::Slider, "Height")
        .set_value_accesskit(200.0);
    settle(&mut h);
    assert_eq!(h.state().generated().unwrap().metrics.cells, 40_000);
}

#[test]
fn export_save_and_open_through_the_path_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor();

    let json = dir.path().join("maze.json");
    h.state_mut().path = json.display().to_string();
    h.run();
    h.get_by_label("Export JSON").click();
    h.run();
    assert!(matches!(&h.state().message, Some(Ok(m)) if m.starts_with("exported")));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["format"], "hedge-maze");
    assert_eq!(v["seed"], h.state().design.seed.unwrap());

    let toml = dir.path().join("maze.toml");
    h.state_mut().path = toml.display().to_string();
    h.run();
    h.get_by_label("Save").click();
    h.run();
    let saved = h.state().design.clone();
    assert_eq!(hedge::io::read_design(&toml).unwrap(), saved);

    h.get_by_label("New seed").click();
    settle(&mut h);
    assert_ne!(h.state().design, saved);
    h.get_by_label("Open").click();
    settle(&mut h);
    assert_eq!(h.state().design, saved);

    // a bad path is a readable line, not a panic
    h.state_mut().path = dir.path().join("nope/x.toml").display().to_string();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(
        matches!(&h.state().message, Some(Err(e)) if e.contains("nope/x.toml")),
        "{:?}",
        h.state().message
    );
}

#[test]
fn answer_key_toggles() {
    let mut h = editor();
    let was = h.state().answer_key;
    h.get_by_label("Answer key").click();
    h.run();
    assert_eq!(h.state().answer_key, !was);
}
