import logo from "../../public/favicon.svg"

/** The product's mark (decorative: the product's name is always written beside it). */
export const Logo = () => <img class="logo" src={logo} alt="" width={22} height={22} />
