pub mod py;
