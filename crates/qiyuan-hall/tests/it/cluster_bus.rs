//! The Redis bus between two nodes, when `QIYUAN_TEST_REDIS` names a Redis
//! server (`tests/cluster/run.sh` starts one); without it the test prints a
//! note and passes.

use std::sync::Arc;
use std::time::Duration;

use qiyuan_hall::bus::EventBus;
use qiyuan_hall::redis_bus::RedisBus;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_published_on_one_node_reach_both_in_order() {
    let Ok(url) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!("note: QIYUAN_TEST_REDIS is not set; the Redis bus test is skipped");
        return;
    };
    let a = RedisBus::connect(&url).await.expect("node a");
    let b = RedisBus::connect(&url).await.expect("node b");
    let topic = format!("game:{}", std::process::id());
    let mut on_a = a.subscribe(&topic);
    let mut on_b = b.subscribe(&topic);
    // Fewer than a subscriber may fall behind (the local capacity, 64).
    let mut other = b.subscribe("another");
    for i in 0..50 {
        a.publish(&topic, Arc::from(format!("{{\"v\":{i}}}")));
    }
    for sub in [&mut on_a, &mut on_b] {
        for i in 0..50 {
            let got = tokio::time::timeout(Duration::from_secs(5), sub.recv())
                .await
                .expect("in time")
                .expect("an event");
            assert_eq!(&*got, format!("{{\"v\":{i}}}"));
        }
    }
    assert!(other.try_recv().is_err(), "another topic heard nothing");
    assert_eq!((a.dropped(), b.dropped()), (0, 0));
}

#[tokio::test]
async fn a_bad_bus_is_a_clear_error() {
    let e = qiyuan_hall::redis_bus::open("amqp://x")
        .await
        .err()
        .expect("refused");
    assert!(e.to_string().contains("redis://"), "{e}");
    let e = qiyuan_hall::redis_bus::open("redis://127.0.0.1:1/")
        .await
        .err()
        .expect("refused");
    assert!(
        format!("{e:#}").contains("cannot connect to Redis"),
        "{e:#}"
    );
}
